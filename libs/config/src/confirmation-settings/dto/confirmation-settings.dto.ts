import { ApiProperty, OmitType } from '@nestjs/swagger';
import { IsOptional, Matches } from 'class-validator';
import {
  EditedDto,
  NestedArray,
  OptionalInt,
  OptionalText,
  ReadOnlyField,
  RequiredText,
} from '@app/shared';
import { LocaleCode } from '../../common/localized-field.dto';

const PLACEHOLDERS =
  'Placeholders: {{ConsentName}}, {{ConsentLanguage}} (the version’s consent language in the ' +
  'locale), {{EmailAddress}}, {{Link}} (the confirmation link; a message must carry it), ' +
  '{{ExpiresAt}}, {{ProgramName}}; in Html they are HTML-escaped. For a program’s opt-in, ' +
  '{{ProgramName}} and {{ConsentName}} are the program’s name and {{ConsentLanguage}} the ' +
  'filter’s description (else the program’s); for a consent, {{ProgramName}} is the consent’s name.';

/** What Text and Html must contain (the service refuses a template without it: 400). */
const LINK_PATTERN = '\\{\\{Link\\}\\}';

/** The confirmation message in one locale. */
export class ConfirmationTemplateDto {
  @LocaleCode({ description: 'Locale code (en, fr-ca); one template per locale' })
  Locale: string;

  @RequiredText(256, { description: `The subject. ${PLACEHOLDERS}` })
  Subject: string;

  @RequiredText(20000, {
    description: 'The plain-text body; must contain {{Link}}',
    pattern: LINK_PATTERN,
  })
  Text: string;

  @RequiredText(50000, {
    description: 'The HTML body; must contain {{Link}}',
    pattern: LINK_PATTERN,
  })
  Html: string;
}

/** A client's double opt-in settings (docs/double-opt-in.md). */
export class ConfirmationSettingsDto {
  @OptionalInt(1, {
    maximum: 24 * 30,
    description: 'Hours a confirmation link stays valid; default 72',
  })
  TimeToLiveHours?: number;

  @OptionalText(256, {
    nullable: true,
    example: 'news@example.com',
    // Checked for its '@' only: nodemailer takes `news@example.com` and
    // `"News" <news@example.com>` alike, and refuses what is no address when sending.
    pattern: '@',
    description:
      'The sender (From): an address, or a name and an address (`"News" <news@example.com>`); absent or null: the deployment’s CONFIRMATION_FROM',
  })
  @IsOptional()
  @Matches(/@/, { message: 'must hold an email address' })
  From?: string | null;

  @NestedArray(() => ConfirmationTemplateDto, {
    description:
      'The message per locale; a locale without one gets its language’s, else the client’s ' +
      `"en" one, else the default (English) template. ${PLACEHOLDERS}`,
  })
  Templates?: ConfirmationTemplateDto[];

  @ReadOnlyField({ type: () => EditedDto })
  Edited?: EditedDto;
}

/**
 * PUT's body: the settings without `Edited`, which the service sets (a PUT that sends it is
 * refused as an unknown field, as its schema says).
 */
export class ConfirmationSettingsRequestDto extends OmitType(ConfirmationSettingsDto, [
  'Edited',
] as const) {}

/** GET's answer: the settings in force (defaults filled in) and the default template. */
export class ConfirmationSettingsViewDto extends ConfirmationSettingsDto {
  @ApiProperty({ type: () => ConfirmationTemplateDto, description: 'The built-in template' })
  DefaultTemplate: ConfirmationTemplateDto;
}
