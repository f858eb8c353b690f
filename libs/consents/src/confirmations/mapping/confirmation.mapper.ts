import type { StoredConfirmation } from '../domain/confirmation.schema';
import type { ConfirmationDto } from '../dto/confirmation.dto';

/**
 * Stored → wire. A pending confirmation past its time to live shows Expired (its link is
 * refused from then on). Never the link or anything it is signed with.
 */
export function toConfirmationDto(item: StoredConfirmation, now: number): ConfirmationDto {
  const expired = item.State === 'Pending' && Date.parse(item.ExpiresDate) <= now;
  return {
    Id: item.confirmationId,
    State: expired ? 'Expired' : item.State,
    EmailAddress: item.EmailAddress,
    ...(item.ConsentType ? { ConsentType: item.ConsentType } : {}),
    ...(item.Preference
      ? {
          Preference: {
            ProgramId: item.Preference.ProgramId,
            ChannelId: item.Preference.ChannelId,
            FilterId: item.Preference.FilterId,
          },
        }
      : {}),
    ...(item.ConsentVersion ? { ConsentVersion: item.ConsentVersion } : {}),
    ...(item.Locale ? { Locale: item.Locale } : {}),
    RequestedDate: item.RequestedDate,
    ExpiresDate: item.ExpiresDate,
    ...(item.ConfirmedDate ? { ConfirmedDate: item.ConfirmedDate } : {}),
    ...(item.ClosedDate ? { ClosedDate: item.ClosedDate } : {}),
    ...(item.ClosedReason ? { ClosedReason: item.ClosedReason } : {}),
    ...(item.MergedFrom !== undefined ? { MergedFrom: item.MergedFrom } : {}),
    MailState: item.Mail.State,
    MailAttempts: item.Mail.Attempts,
    ...(item.Mail.SentDate ? { MailSentDate: item.Mail.SentDate } : {}),
    ...(item.Mail.LastError ? { MailLastError: item.Mail.LastError } : {}),
    ...(item.Mail.Resends ? { MailResends: item.Mail.Resends } : {}),
  };
}
