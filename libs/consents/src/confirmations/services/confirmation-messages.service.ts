import { Inject, Injectable } from '@nestjs/common';
import { ConfigurationReader, templateFor } from '@app/config';
import { ConfirmationMailSettings } from '../confirmation-settings';
import { confirmationToken } from '../domain/confirmation-link';
import { type ConfirmationMessage, fillConfirmationTemplate } from '../domain/confirmation-message';
import type { StoredConfirmation } from '../domain/confirmation.schema';
import { CONFIRM_ROUTE_PREFIX } from '../domain/confirmation-paths';
import { ConfirmationLinkKeys } from './confirmation-link-keys.service';

/** A confirmation's message: the client's template for its locale, filled in, and its link. */
@Injectable()
export class ConfirmationMessages {
  constructor(
    private readonly configuration: ConfigurationReader,
    private readonly keys: ConfirmationLinkKeys,
    @Inject(ConfirmationMailSettings) private readonly settings: ConfirmationMailSettings,
  ) {}

  async build(
    confirmation: StoredConfirmation,
  ): Promise<ConfirmationMessage & { from: string; to: string; messageId: string }> {
    const [settings, key] = await Promise.all([
      this.configuration.confirmation(confirmation.clientId),
      this.keys.get(),
    ]);
    const token = confirmationToken(
      {
        clientId: confirmation.clientId,
        profileId: confirmation.profileId,
        confirmationId: confirmation.confirmationId,
        expiresAt: Math.floor(Date.parse(confirmation.ExpiresDate) / 1000),
      },
      key,
    );
    const link = `${this.settings.baseUrl}${CONFIRM_ROUTE_PREFIX}/${token}`;
    const texts = await this.texts(confirmation);
    const message = fillConfirmationTemplate(templateFor(settings, confirmation.Locale), {
      ConsentName: texts.consentName,
      ProgramName: texts.consentName,
      ConsentLanguage: texts.consentLanguage,
      EmailAddress: confirmation.EmailAddress,
      Link: link,
      ExpiresAt: confirmation.ExpiresDate,
    });
    return {
      ...message,
      from: settings.From ?? this.settings.from,
      to: confirmation.EmailAddress,
      // The same id on every attempt: a receiving system can tell a repeat from a new message
      // (a resend is a new message: its own id).
      messageId: `<${confirmation.confirmationId}.${confirmation.profileId}${
        confirmation.Mail.Resends ? `.r${confirmation.Mail.Resends}` : ''
      }@confirmations.invalid>`,
    };
  }

  /**
   * The consent's name and text in the confirmation's locale (else the first one); for a
   * program's opt-in, the program's name and its filter's description (else the program's).
   */
  async texts(
    confirmation: StoredConfirmation,
  ): Promise<{ consentName: string; consentLanguage: string }> {
    const presentation = await this.configuration.presentation(confirmation.clientId);
    if (confirmation.Preference) {
      const { ProgramId, FilterId } = confirmation.Preference;
      const program = presentation.programs.find((p) => String(p.Id) === ProgramId);
      const filter = program?.Filters.find((f) => String(f.Id) === FilterId);
      const name = program?.Name ?? `Program ${ProgramId}`;
      return {
        consentName: name,
        consentLanguage:
          filter?.Description ??
          program?.Description ??
          `${name}${filter ? ` (${filter.Name})` : ''} by email`,
      };
    }
    const consentType = confirmation.ConsentType ?? '';
    const locale = (confirmation.Locale ?? '').toLowerCase();
    const type = presentation.consentTypes.find(
      (candidate) => candidate.TypeName.toLowerCase() === consentType.toLowerCase(),
    );
    const version =
      type?.Versions.find((v) => v.ConsentVersion === confirmation.ConsentVersion) ??
      type?.Versions.find((v) => v.ConsentVersion === type.LatestVersion);
    const byLocale = <T extends { Locale: string }>(fields: readonly T[] | undefined) =>
      fields?.find((field) => field.Locale.toLowerCase() === locale) ??
      fields?.find((field) => field.Locale.toLowerCase() === locale.split('-')[0]) ??
      fields?.[0];
    const versionText = byLocale(version?.LocalizedFields);
    return {
      consentName: byLocale(type?.LocalizedFields)?.Name ?? consentType,
      consentLanguage: versionText?.ConsentLanguage ?? versionText?.Name ?? consentType,
    };
  }
}
