import { Injectable } from '@nestjs/common';
import { ConfigurationReader, ConsentStatus } from '@app/config';
import type {
  AppliedWrite,
  ProfileApplyHook,
  ProfileData,
  ProfileErasureListener,
  StoredConsent,
} from '@app/profiles';
import { CRASH_POINTS, CrashPoints, JobQueue, textKey } from '@app/shared';
import { confirmationKey } from '../../keys';
import { CONFIRMATION_EXPIRE_WRITE } from '../domain/confirmation-hold';
import type { StoredConfirmation } from '../domain/confirmation.schema';
import { ConfirmationRepository } from '../repositories/confirmation.repository';
import { ConfirmationExpiryIndex } from './confirmation-expiry-index.service';
import { CONFIRMATION_MAIL } from '../worker/confirmation.job-definitions';

/** A consent of an email address, with the address (as stored). */
interface EmailConsent {
  emailAddress: string;
  consent: StoredConsent;
}

/** Every active consent of the profile's email addresses, by `<address key>|<type key>`. */
function emailConsents(data: ProfileData | undefined): Map<string, EmailConsent> {
  const found = new Map<string, EmailConsent>();
  for (const email of data?.Emails ?? []) {
    if (email.IsActive === false) continue;
    for (const consent of email.Consents ?? []) {
      if (consent.IsActive === false) continue;
      found.set(`${textKey(email.EmailAddress)}|${textKey(consent.ConsentType ?? '')}`, {
        emailAddress: email.EmailAddress,
        consent,
      });
    }
  }
  return found;
}

/** What the survivor kept instead of an absorbed request (the cancellation's reason). */
function mergeOutcome(kept: StoredConsent | undefined): string {
  if (!kept) return 'which does not hold the consent';
  if (kept.PendingConfirmation)
    return `whose consent waits for its own confirmation ${kept.PendingConfirmation.Id}`;
  const status = ConsentStatus[kept.ConsentStatus ?? ConsentStatus.NotSet] ?? 'NotSet';
  return `whose consent is ${status}`;
}

/**
 * The worker's side of double opt-in (the apply hook, before the profile's save): a grant
 * the consent rules held gets its confirmation, its outbox document and its mail job; a
 * pending confirmation the write ended is recorded Confirmed (the confirm write), Expired
 * (the expiry job's write) or Cancelled (a denial, revocation, deactivation or removal). A retry of the write finds the
 * same ids and inserts nothing twice. An erasure deletes the profile's confirmations (they
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
    const was = emailConsents(before);
    const now = emailConsents(after);
    const takenOver =
      write.absorbedProfileId === undefined
        ? new Set<string>()
        : await this.absorbRequests(write, write.absorbedProfileId, now);
    for (const [key, { emailAddress, consent }] of now) {
      const pending = consent.PendingConfirmation;
      if (
        pending &&
        !takenOver.has(pending.Id) &&
        was.get(key)?.consent.PendingConfirmation?.Id !== pending.Id
      )
        await this.request(write, emailAddress, consent);
    }
    for (const [key, { consent }] of was) {
      const pending = consent.PendingConfirmation;
      if (!pending) continue;
      const next = now.get(key)?.consent;
      if (next?.PendingConfirmation?.Id === pending.Id) continue;
      await this.close(write, pending.Id, next);
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
    now: Map<string, EmailConsent>,
  ): Promise<Set<string>> {
    const carried = new Map<string, EmailConsent>();
    for (const entry of now.values())
      if (entry.consent.PendingConfirmation)
        carried.set(entry.consent.PendingConfirmation.Id, entry);
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
      const kept = now.get(
        `${textKey(confirmation.EmailAddress)}|${textKey(confirmation.ConsentType)}`,
      )?.consent;
      await this.expiryIndex.remove(confirmation._id);
      await this.confirmations.update(confirmation, {
        State: 'Cancelled',
        ClosedDate: new Date().toISOString(),
        ClosedReason: `Profile ${absorbedId} was merged into profile ${write.profileId}, ${mergeOutcome(kept)}`,
      });
    }
    return takenOver;
  }

  profileErased(clientId: string, profileId: number): Promise<void> {
    return this.confirmations.deleteProfile(clientId, profileId);
  }

  private async request(
    write: AppliedWrite,
    emailAddress: string,
    consent: StoredConsent,
  ): Promise<void> {
    const pending = consent.PendingConfirmation!;
    const settings = await this.configuration.confirmation(write.clientId);
    const requested = Date.parse(pending.RequestedDate);
    const confirmation: StoredConfirmation = {
      _id: confirmationKey(write.clientId, write.profileId, pending.Id),
      clientId: write.clientId,
      profileId: write.profileId,
      confirmationId: pending.Id,
      EmailAddress: emailAddress,
      ConsentType: consent.ConsentType ?? '',
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
    next: StoredConsent | undefined,
  ): Promise<void> {
    const confirmation = await this.confirmations.find(
      write.clientId,
      write.profileId,
      confirmationId,
    );
    if (!confirmation || confirmation.State !== 'Pending') return;
    await this.expiryIndex.remove(confirmation._id);
    const evidence = next?.Confirmation;
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
    if (write.kind === CONFIRMATION_EXPIRE_WRITE) {
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
