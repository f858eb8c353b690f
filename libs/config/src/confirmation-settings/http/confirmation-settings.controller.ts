import { Body, Get, Put } from '@nestjs/common';
import { ApiBody } from '@nestjs/swagger';
import type { BodyExamples } from '@app/shared';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { type Caller, CurrentCaller } from '@app/auth';
import { ConfigController, ConfigRead, ConfigWrite } from '../../common/config-route.decorators';
import { ReplaceConfirmationSettingsCommand } from '../commands/replace-confirmation-settings/replace-confirmation-settings.command';
import {
  ConfirmationSettingsRequestDto,
  ConfirmationSettingsViewDto,
} from '../dto/confirmation-settings.dto';
import { GetConfirmationSettingsQuery } from '../queries/get-confirmation-settings/get-confirmation-settings.query';

const SETTINGS_EXAMPLES: BodyExamples<ConfirmationSettingsRequestDto> = {
  germanAndEnglish: {
    summary: 'Links valid for 48 hours, a sender, a German template (others take the default)',
    value: {
      TimeToLiveHours: 48,
      From: 'newsletter@example.com',
      Templates: [
        {
          Locale: 'de',
          Subject: 'Bitte bestätigen: {{ConsentName}}',
          Text: '{{ConsentLanguage}}\n\nBestätigen (bis {{ExpiresAt}}): {{Link}}',
          Html: '<p>{{ConsentLanguage}}</p><p><a href="{{Link}}">Bestätigen</a></p>',
        },
      ],
    },
  },
};

/** The client's double opt-in settings (docs/double-opt-in.md). */
@ConfigController(':clientId/ConfirmationSettings', { tag: 'Configuration: double opt-in' })
export class ConfirmationSettingsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get()
  @ConfigRead({
    summary: 'The double opt-in settings: link time to live, sender, message per locale',
    description:
      'The settings in force (defaults where none were stored: 72 hours, the deployment’s ' +
      'sender, the default template) and the default template.',
    ok: ConfirmationSettingsViewDto,
  })
  get(@CurrentCaller() caller: Caller): Promise<ConfirmationSettingsViewDto> {
    return this.queries.execute(new GetConfirmationSettingsQuery(caller.clientId));
  }

  @Put()
  @ConfigWrite({
    summary: 'Replace the double opt-in settings',
    description:
      'Replaced whole; what is omitted takes its default. A template per locale at most; ' +
      'Text and Html must contain {{Link}} (400 naming the template otherwise).',
    ok: ConfirmationSettingsViewDto,
  })
  @ApiBody({ type: ConfirmationSettingsRequestDto, examples: SETTINGS_EXAMPLES })
  replace(
    @CurrentCaller() caller: Caller,
    @Body() body: ConfirmationSettingsRequestDto,
  ): Promise<ConfirmationSettingsViewDto> {
    return this.commands.execute(
      new ReplaceConfirmationSettingsCommand(caller.clientId, caller.userId, body),
    );
  }
}
