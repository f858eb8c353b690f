import { Injectable } from '@nestjs/common';
import type { ProfileData } from '../domain/profile-data.schema';
import type { ProfileEvent } from '../domain/profile-events';
import {
  type CallerScope,
  canSeeConsentType,
  canSeeCustomField,
  canSeeProgram,
  normaliseScope,
  type ProfileView,
} from '../domain/profile-view';
import { fieldOf } from '../domain/profile-shape';
import { toProfileDto } from '../wire/profile.mapper';
import { ProfileEventRepository } from '../persistence/profile-event.repository';
import { ProfileRepository } from '../persistence/profile.repository';
import type { AlternateIdPair } from '../persistence/alternate-id-claims.service';

/** Event documents read at once (each by `_id`). */
const READ_PARALLEL = 16;

/**
 * The port through which Events reads a profile's events (docs/events.md): those of its
 * applied writes the profile's event log keeps, each by `_id`, so the cost follows that
 * profile's own writes of the last days, never the collection. Data is shown as the
 * reader's user group may see it: a profile.* event's profile in the GET shape of that
 * view, and an item's event only when its consent type, program or custom field is in the
 * group's scope.
 */
@Injectable()
export class ProfileEventFeed {
  constructor(
    private readonly profiles: ProfileRepository,
    private readonly events: ProfileEventRepository,
  ) {}

  /**
   * The events of the profile's writes accepted from `from` to `to` (both included), in
   * write order; null when the client has no such profile (never created, or not yet).
   * A deleted profile shows its `profile.deleted` event only.
   */
  async eventsOf(
    clientId: string,
    profileId: number,
    window: { from: Date; to: Date },
    scope: CallerScope | undefined,
  ): Promise<ProfileEvent[] | null> {
    const profile = await this.profiles.findOne(clientId, profileId);
    if (!profile || profile.state === 'pending') return null;
    const from = window.from.getTime();
    const to = window.to.getTime();
    const seqs = (profile.eventLog ?? [])
      .filter(({ seq, at }) => seq <= profile.appliedSeq && at >= from && at <= to)
      .map(({ seq }) => seq);
    return this.read(clientId, profileId, seqs, scope);
  }

  /**
   * For a delivery (Events' worker): the profile's kept events of writes `fromSeq` and
   * later, in write order, as an unrestricted view shows them, with the profile's active
   * alternate ids (a subscription may name the profile by one) and its group names (what a
   * subscription may narrow by); null when the client has no such profile.
   */
  async eventsFrom(
    clientId: string,
    profileId: number,
    fromSeq: number,
  ): Promise<{ events: ProfileEvent[]; alternateIds: AlternateIdPair[]; groups: string[] } | null> {
    const profile = await this.profiles.findOne(clientId, profileId);
    if (!profile || profile.state === 'pending') return null;
    const seqs = (profile.eventLog ?? [])
      .filter(({ seq }) => seq >= fromSeq && seq <= profile.appliedSeq)
      .map(({ seq }) => seq);
    const alternateIds = (profile.data?.AlternateIds ?? [])
      .filter((pair) => pair.IsActive !== false)
      .map(({ AlternateIdType, AlternateId }) => ({ AlternateIdType, AlternateId }));
    const groups = (profile.data?.Groups ?? []).map((group) => group.GroupName);
    return { events: await this.read(clientId, profileId, seqs, undefined), alternateIds, groups };
  }

  /** The events of writes `seqs` (each by `_id`, some at once), as `scope` sees them. */
  private async read(
    clientId: string,
    profileId: number,
    seqs: number[],
    scope: CallerScope | undefined,
  ): Promise<ProfileEvent[]> {
    const found: ProfileEvent[][] = [];
    for (let k = 0; k < seqs.length; k += READ_PARALLEL) {
      found.push(
        ...(await Promise.all(
          seqs.slice(k, k + READ_PARALLEL).map((seq) => this.events.find(clientId, profileId, seq)),
        )),
      );
    }
    const view: ProfileView = { implied: true, archived: true, scope: normaliseScope(scope) };
    return found.flat().flatMap((event) => {
      const shown = visibleEvent(event, view);
      return shown ? [shown] : [];
    });
  }
}

/** The event as `view` shows it, or null when its item is outside the view's scope. */
function visibleEvent(event: ProfileEvent, view: ProfileView): ProfileEvent | null {
  if (event.consentType !== undefined && !canSeeConsentType(view, event.consentType)) return null;
  if (event.customField !== undefined && !canSeeCustomField(view, event.customField)) return null;
  const programId = fieldOf(event.data, 'ProgramId');
  if (event.filterId !== undefined && programId !== undefined && !canSeeProgram(view, programId))
    return null;
  if (!event.type.startsWith('profile.') || event.type === 'profile.deleted') return event;
  if (event.type === 'profile.merged') return event; // ids and a reason code, no profile data
  if (event.type === 'profile.deactivated' || event.type === 'profile.reactivated') return event;
  const asDto = (data: unknown) =>
    data ? (toProfileDto(event.profileId, data as ProfileData, false, view) as object) : undefined;
  const data = asDto(event.data);
  const previousData = asDto(event.previousData);
  return {
    ...event,
    ...(data ? { data: data as Record<string, unknown> } : {}),
    ...(previousData ? { previousData: previousData as Record<string, unknown> } : {}),
  };
}
