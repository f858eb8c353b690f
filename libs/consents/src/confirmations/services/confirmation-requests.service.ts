import { Injectable } from '@nestjs/common';
import { ConfigurationReader } from '@app/config';
import {
  type AppliedWrite,
  preferenceKey,
  type ProfileApplyHook,
  type ProfileData,
  type ProfileErasureListener,
  type StoredConsent,
  type StoredConfirmationEvidence,
} from '@app/profiles';
import { CRASH_POINTS, CrashPoints, JobQueue, textKey } from '@app/shared';
import { confirmationKey } from '../../keys';
import { isExpireWrite } from '../domain/confirmation-subject';
import type { StoredConfirmation } from '../domain/confirmation.schema';
import { ConfirmationRepository } from '../repositories/confirmation.repository';
import { ConfirmationExpiryIndex } from './confirmation-expiry-index.service';
import { CONFIRMATION_MAIL } from '../worker/confirmation.job-definitions';

/**
 * What an email address holds that a confirmation may be about: a consent, or a preference
 * (a program's opt-in), with the address (as stored) and the fields the confirmation records.
 */
interface EmailHeld {
  emailAddress: string;
  held: Pick<StoredConsent, 'PendingConfirmation' | 'Confirmation'>;
  subject: Pick<StoredConfirmation, 'ConsentType' | 'Preference'>;
}

/**
 * Every active consent and preference of the profile's active email addresses, by
 * `<address key>|consent|<type key>` and `<address key>|preference|<preference key>`.
 */
function emailHeld(data: ProfileData | undefined): Map<string, EmailHeld> {
  const found = new Map<string, EmailHeld>();
  for (const email of data?.Emails ?? []) {
    if (email.IsActive === false) continue;
    const address = textKey(email.EmailAddress);
    for (const consent of email.Consents ?? []) {
      if (consent.IsActive === false) continue;
      found.set(`${address}|consent|${textKey(consent.ConsentType ?? '')}`, {
        emailAddress: email.EmailAddress,
        held: consent,
        subject: { ConsentType: consent.ConsentType ?? '' },
      });
    }
    for (const preference of email.EmailPreferences ?? []) {
      if (preference.IsActive === false) continue;
      found.set(`${address}|preference|${preferenceKey(preference)}`, {
        emailAddress: email.EmailAddress,
        held: preference,
        subject: {
          Preference: {
            ProgramId: preference.ProgramId ?? '',
            ChannelId: preference.ChannelId ?? '',
            FilterId: preference.FilterId ?? '',
          },
        },
      });
    }
  }
  return found;
}

/**
 * The worker's side of double opt-in (the apply hook, before the profile's save): a grant
 * the consent rules held (or an opt-in the preference rules held) gets its confirmation, its
 * outbox document and its mail job; a pending confirmation the write ended is recorded
 * Confirmed (the confirm write), Expired (the expiry job's write) or Cancelled (a denial,
 * revocation, opt-out, deactivation or removal). A retry of the write finds the same ids and
 * inserts nothing twice. An erasure deletes the profile's confirmations (they
 * hold its address).
 */
@Injectable()
export class ConfirmationRequests implements ProfileApplyHook, ProfileErasureListener {
  constructor(
    private readonly confirmations: ConfirmationRepository,
    private readonly expiryIndex: ConfirmationExpiryIndex,
    private readonly configuration: ConfigurationReader,
    private readonly jobs: JobQueue,
    private readonly crashPoints: CrashPoints,
  ) {}

  async beforeSave(
    write: AppliedWrite,
    before: ProfileData | undefined,
    after: ProfileData | undefined,
  ): Promise<void> {
    const was = emailHeld(before);
    const now = emailHeld(after);
    for (const [key, item] of now) {
      const pending = item.held.PendingConfirmation;
      if (pending && was.get(key)?.held.PendingConfirmation?.Id !== pending.Id)
        await this.request(write, item);
    }
    for (const [key, { held }] of was) {
      const pending = held.PendingConfirmation;
      if (!pending) continue;
      const next = now.get(key)?.held;
      if (next?.PendingConfirmation?.Id === pending.Id) continue;
      await this.close(write, pending.Id, next?.Confirmation);
    }
  }

  profileErased(clientId: string, profileId: number): Promise<void> {
    return this.confirmations.deleteProfile(clientId, profileId);
  }

  private async request(
    write: AppliedWrite,
    { emailAddress, held, subject }: EmailHeld,
  ): Promise<void> {
    const pending = held.PendingConfirmation!;
    const settings = await this.configuration.confirmation(write.clientId);
    const requested = Date.parse(pending.RequestedDate);
    const confirmation: StoredConfirmation = {
      _id: confirmationKey(write.clientId, write.profileId, pending.Id),
      clientId: write.clientId,
      profileId: write.profileId,
      confirmationId: pending.Id,
      EmailAddress: emailAddress,
      ...subject,
      ...(pending.ConsentVersion ? { ConsentVersion: pending.ConsentVersion } : {}),
      ...(pending.Locale ? { Locale: pending.Locale } : {}),
      State: 'Pending',
      RequestedDate: pending.RequestedDate,
      ExpiresDate: new Date(requested + settings.TimeToLiveHours * 3_600_000).toISOString(),
      Mail: { State: 'Queued', Attempts: 0 },
    };
    // Indexed first: a death before the insert leaves a member the expiry job drops.
    await this.expiryIndex.add([confirmation]);
    await this.confirmations.insertRequested(confirmation, new Date());
    await this.crashPoints.at(CRASH_POINTS.confirmationAfterOutbox);
    await this.jobs.enqueue(CONFIRMATION_MAIL, {
      clientId: write.clientId,
      profileId: write.profileId,
      confirmationId: pending.Id,
    });
  }

  private async close(
    write: AppliedWrite,
    confirmationId: string,
    evidence: StoredConfirmationEvidence | undefined,
  ): Promise<void> {
    const confirmation = await this.confirmations.find(
      write.clientId,
      write.profileId,
      confirmationId,
    );
    if (!confirmation || confirmation.State !== 'Pending') return;
    await this.expiryIndex.remove(confirmation._id);
    if (evidence?.LinkId === confirmationId) {
      await this.confirmations.update(confirmation, {
        State: 'Confirmed',
        ConfirmedDate: evidence.ConfirmedDate,
        ClosedDate: evidence.ConfirmedDate,
        Request: {
          ...(evidence.IpAddress ? { IpAddress: evidence.IpAddress } : {}),
          ...(evidence.UserAgent ? { UserAgent: evidence.UserAgent } : {}),
        },
      });
      return;
    }
    if (isExpireWrite(write.kind)) {
      await this.confirmations.update(confirmation, {
        State: 'Expired',
        ClosedDate: confirmation.ExpiresDate,
      });
      return;
    }
    await this.confirmations.update(confirmation, {
      State: 'Cancelled',
      ClosedDate: new Date().toISOString(),
    });
  }
}
