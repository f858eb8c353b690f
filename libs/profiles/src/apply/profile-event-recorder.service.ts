import { Injectable } from '@nestjs/common';
import { Clock } from '@app/shared';
import type { ProfileEvent } from '../domain/profile-events';
import { type EventLog, nextEventLog } from '../domain/profile-event-log';
import type { ProfileWrite } from '../domain/profile-write.schema';
import type { Profile } from '../domain/profile.schema';
import { ProfileEventRepository } from '../persistence/profile-event.repository';

/**
 * The worker's recording of a write's events (docs/events.md, "Storage"), before the
 * profile's save: the events are stored by `_id`, and the profile's event log to save with
 * it is returned, so the events become readable with the save and a crash before it
 * leaves nothing readable (the retry stores the same events again). Events past the log's
 * bounds (EVENT_HISTORY_DAYS, EVENT_LOG_MAX) are removed here.
 */
@Injectable()
export class ProfileEventRecorder {
  constructor(
    private readonly events: ProfileEventRepository,
    private readonly clock: Clock,
  ) {}

  async record(profile: Profile, write: ProfileWrite, events: ProfileEvent[]): Promise<EventLog> {
    const { clientId, profileId, seq } = write;
    const { log, dropped } = nextEventLog(
      profile.eventLog,
      seq,
      write.acceptedAt.getTime(),
      events.length > 0,
      this.clock.now().getTime(),
    );
    if (events.length) await this.events.record(clientId, profileId, seq, events);
    await this.events.erase(clientId, profileId, dropped);
    return log;
  }

  /** A write that failed after an attempt recorded its events: they go (never readable). */
  async eraseWrite(write: ProfileWrite): Promise<void> {
    await this.events.erase(write.clientId, write.profileId, [write.seq]);
  }

  /**
   * A deleted profile keeps no personal data: the events of its writes before the delete
   * go (its `profile.deleted` event, naming only its id, stays for its subscribers).
   */
  async eraseBefore(profile: Profile, seq: number): Promise<void> {
    const older = (profile.eventLog ?? [])
      .map((entry) => entry.seq)
      .filter((logged) => logged < seq);
    await this.events.erase(profile.clientId, profile.profileId, older);
  }
}
