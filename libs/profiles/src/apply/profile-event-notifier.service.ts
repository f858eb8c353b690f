import { Inject, Injectable, Logger } from '@nestjs/common';
import type { ProfileEvent } from '../domain/profile-events';
import type { Profile } from '../domain/profile.schema';
import { profileKey } from '../keys';
import { ProfileEventRepository } from '../persistence/profile-event.repository';
import {
  PROFILE_EVENT_LISTENERS,
  type ProfileEventListener,
} from '../ports/profile-event-listener';

/**
 * Tells the event listeners (ProfileEventListener) of a saved write's events, in the
 * worker. A listener's failure is logged and the write goes on (it is saved): the events
 * stay stored, and whatever a listener missed it hears with the profile's next write
 * (docs/events.md, "Deliveries").
 */
@Injectable()
export class ProfileEventNotifier {
  private readonly logger = new Logger('ProfileEvents');

  constructor(
    @Inject(PROFILE_EVENT_LISTENERS) private readonly listeners: ProfileEventListener[],
    private readonly events: ProfileEventRepository,
  ) {}

  async saved(clientId: string, profileId: number, events: ProfileEvent[]): Promise<void> {
    if (!events.length) return;
    for (const listener of this.listeners) await this.tell(listener, clientId, profileId, events);
  }

  /**
   * `saved` for many profiles of one client saved together (a bulk import's new profiles):
   * each listener once for them all when it takes them at once (eventsSavedMany), else
   * once per profile, concurrently.
   */
  async savedMany(
    clientId: string,
    saved: { profileId: number; events: ProfileEvent[] }[],
  ): Promise<void> {
    const some = saved.filter(({ events }) => events.length);
    if (!some.length) return;
    for (const listener of this.listeners) {
      if (!listener.eventsSavedMany) {
        await Promise.all(
          some.map(({ profileId, events }) => this.tell(listener, clientId, profileId, events)),
        );
        continue;
      }
      try {
        await listener.eventsSavedMany(clientId, some);
      } catch (error) {
        this.logger.warn(
          `events of ${some.length} profiles of client ${clientId} not passed on: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    }
  }

  private async tell(
    listener: ProfileEventListener,
    clientId: string,
    profileId: number,
    events: ProfileEvent[],
  ): Promise<void> {
    try {
      await listener.eventsSaved(clientId, profileId, events);
    } catch (error) {
      this.logger.warn(
        `events of ${profileKey(clientId, profileId)} not passed on: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }

  /**
   * Again for the profile's last applied write, read back (a job that finds the write
   * applied: the worker before it may have died between the save and `saved`).
   */
  async savedAgain(profile: Profile): Promise<void> {
    if (!this.listeners.length) return;
    const last = profile.eventLog?.[profile.eventLog.length - 1];
    if (!last || last.seq !== profile.appliedSeq) return;
    const events = await this.events.find(profile.clientId, profile.profileId, last.seq);
    await this.saved(profile.clientId, profile.profileId, events);
  }
}
