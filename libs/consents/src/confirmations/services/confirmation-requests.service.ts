import { Injectable } from '@nestjs/common';
import { ConfigurationReader, ConsentStatus } from '@app/config';
import {
  type AppliedWrite,
  preferenceKey,
  type ProfileData,
  type ProfileExtension,
  type StoredConsent,
  type StoredConfirmationEvidence,
  type WriteTransition,
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
  /** Its state in words, for a merge's cancellation reason ("whose consent is Denied"). */
  state: string;
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
        state: `consent is ${ConsentStatus[consent.ConsentStatus ?? ConsentStatus.NotSet] ?? 'NotSet'}`,
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
        state:
          preference.PreferenceType === 1
            ? 'preference is an opt-in'
            : preference.PreferenceType === 2
              ? 'preference is an opt-out'
              : 'preference is neither an opt-in nor an opt-out',
      });
    }
  }
  return found;
}

/** The key emailHeld files a confirmation's subject under, on its address. */
function heldKey(confirmation: StoredConfirmation): string {
  const address = textKey(confirmation.EmailAddress);
  return confirmation.Preference
    ? `${address}|preference|${preferenceKey(confirmation.Preference)}`
    : `${address}|consent|${textKey(confirmation.ConsentType ?? '')}`;
}

/** What the survivor kept instead of an absorbed request (the cancellation's reason). */
function mergeOutcome(kept: EmailHeld | undefined, confirmation: StoredConfirmation): string {
  if (!kept) return `which does not hold the ${confirmation.Preference ? 'preference' : 'consent'}`;
  const [kind] = kept.state.split(' ');
  if (kept.held.PendingConfirmation)
    return `whose ${kind} waits for its own confirmation ${kept.held.PendingConfirmation.Id}`;
  return `whose ${kept.state}`;
}

/**
 * The worker's side of double opt-in (an extension of Profiles' apply: its `beforeSave`,
 * for each write before the profile's save, and `erased`): a grant
 * the consent rules held (or an opt-in the preference rules held) gets its confirmation, its
 * outbox document and its mail job; a pending confirmation the write ended is recorded
 * Confirmed (the confirm write), Expired (the expiry job's write) or Cancelled (a denial,
 * revocation, opt-out, deactivation or removal). A retry of the write finds the same ids and
 * inserts nothing twice. An erasure deletes the profile's confirmations (they
 * hold its address).
 */
@Injectable()
export class ConfirmationRequests implements ProfileExtension {
  constructor(
    private readonly confirmations: ConfirmationRepository,
    private readonly expiryIndex: ConfirmationExpiryIndex,
    private readonly configuration: ConfigurationReader,
    private readonly jobs: JobQueue,
    private readonly crashPoints: CrashPoints,
  ) {}

  /** Each write in turn (the import's new profiles: one after the other, as before). */
  async beforeSave(_clientId: string, writes: WriteTransition[]): Promise<void> {
    for (const { write, before, after } of writes) await this.requestAndClose(write, before, after);
  }

  private async requestAndClose(
    write: AppliedWrite,
    before: ProfileData | undefined,
    after: ProfileData | undefined,
  ): Promise<void> {
    const was = emailHeld(before);
    const now = emailHeld(after);
    const takenOver =
      write.absorbedProfileId === undefined
        ? new Set<string>()
        : await this.absorbRequests(write, write.absorbedProfileId, now);
    for (const [key, item] of now) {
      const pending = item.held.PendingConfirmation;
      if (
        pending &&
        !takenOver.has(pending.Id) &&
        was.get(key)?.held.PendingConfirmation?.Id !== pending.Id
      )
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

  /**
   * A merge's absorbed profile's pending confirmations (docs/double-opt-in.md, "Merges"):
   * one whose request the survivor's consent now carries (decideConsent: the survivor had
   * no state of its own for it) is taken over, so its link confirms on the survivor with no
   * second message; every other is recorded Cancelled with the reason (its link is
   * refused as withdrawn). Answers the ids taken over. A retry finds them moved already.
   */
  private async absorbRequests(
    write: AppliedWrite,
    absorbedId: number,
    now: Map<string, EmailHeld>,
  ): Promise<Set<string>> {
    const carried = new Map<string, EmailHeld>();
    for (const entry of now.values())
      if (entry.held.PendingConfirmation) carried.set(entry.held.PendingConfirmation.Id, entry);
    const takenOver = new Set<string>();
    for (const confirmation of await this.confirmations.listOwn(write.clientId, absorbedId)) {
      if (confirmation.State !== 'Pending') continue;
      const id = confirmation.confirmationId;
      const survivor = carried.get(id);
      if (confirmation.MovedTo !== undefined && confirmation.MovedTo !== null) {
        takenOver.add(id);
        continue;
      }
      if (survivor) {
        takenOver.add(id);
        const copy: StoredConfirmation = {
          ...confirmation,
          _id: confirmationKey(write.clientId, write.profileId, id),
          profileId: write.profileId,
          EmailAddress: survivor.emailAddress,
          MergedFrom: absorbedId,
        };
        // Indexed first, as a new request is: a death before the insert leaves a member
        // the expiry job drops.
        await this.expiryIndex.add([copy]);
        await this.confirmations.moveToSurvivor(confirmation, copy);
        await this.expiryIndex.remove(confirmation._id);
        continue;
      }
      const kept = now.get(heldKey(confirmation));
      await this.expiryIndex.remove(confirmation._id);
      await this.confirmations.update(confirmation, {
        State: 'Cancelled',
        ClosedDate: new Date().toISOString(),
        ClosedReason: `Profile ${absorbedId} was merged into profile ${write.profileId}, ${mergeOutcome(kept, confirmation)}`,
      });
    }
    return takenOver;
  }

  erased(clientId: string, profileId: number): Promise<void> {
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
