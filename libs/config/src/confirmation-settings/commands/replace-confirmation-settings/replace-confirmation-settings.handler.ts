import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { InvalidInputError } from '@app/shared';
import { ConfigBookkeeping } from '../../../common/config-bookkeeping.repository';
import { editedOnUpdate } from '../../../common/entry-request';
import { confirmationSettingsKey } from '../../../keys';
import { confirmationSettingsProblems } from '../../domain/confirmation-settings.rules';
import { DEFAULT_CONFIRMATION_TTL_HOURS } from '../../domain/confirmation-template';
import type { ConfirmationSettingsViewDto } from '../../dto/confirmation-settings.dto';
import { toConfirmationSettingsDto } from '../../mapping/confirmation-settings.mapper';
import { ConfirmationSettingsRepository } from '../../repositories/confirmation-settings.repository';
import { ReplaceConfirmationSettingsCommand } from './replace-confirmation-settings.command';

@CommandHandler(ReplaceConfirmationSettingsCommand)
export class ReplaceConfirmationSettingsHandler implements ICommandHandler<ReplaceConfirmationSettingsCommand> {
  constructor(
    private readonly settings: ConfirmationSettingsRepository,
    private readonly bookkeeping: ConfigBookkeeping,
  ) {}

  async execute({
    clientId,
    userId,
    body,
  }: ReplaceConfirmationSettingsCommand): Promise<ConfirmationSettingsViewDto> {
    const templates = (body.Templates ?? []).map(({ Locale, Subject, Text, Html }) => ({
      Locale,
      Subject,
      Text,
      Html,
    }));
    const problems = confirmationSettingsProblems(templates);
    const previous = await this.settings.find(clientId);
    if (problems.length) throw new InvalidInputError(problems.join('; '));
    const stored = {
      _id: confirmationSettingsKey(clientId),
      clientId,
      TimeToLiveHours: body.TimeToLiveHours ?? DEFAULT_CONFIRMATION_TTL_HOURS,
      ...(body.From ? { From: body.From } : {}),
      Templates: templates,
      Edited: editedOnUpdate(previous?.Edited, userId, new Date()),
    };
    await this.settings.replace(stored);
    // Every process's cached configuration of the client is checked against the stamp.
    await this.bookkeeping.touch(clientId);
    return toConfirmationSettingsDto(stored);
  }
}
