import { Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { HandlesJob, JobHandler } from '@app/shared';
import { DeliverProfileEventsCommand } from '../commands/deliver-profile-events/deliver-profile-events.command';
import { RedeliverEventCommand } from '../commands/redeliver-event/redeliver-event.command';
import { ReplayPausedEventsCommand } from '../commands/replay-paused-events/replay-paused-events.command';
import {
  DELIVER_PROFILE_EVENTS,
  type DeliverProfileEventsPayload,
  REDELIVER_EVENT,
  type RedeliverEventPayload,
  REPLAY_PAUSED_EVENTS,
  type ReplayPausedEventsPayload,
} from './event.job-definitions';

/* Job handlers only hand off to commands; the use cases live in the command handlers. */

@Injectable()
@HandlesJob(DELIVER_PROFILE_EVENTS)
export class DeliverProfileEventsJob implements JobHandler<DeliverProfileEventsPayload> {
  constructor(private readonly commands: CommandBus) {}

  async handle({ clientId, subscriptionId, profileId, busy }: DeliverProfileEventsPayload) {
    await this.commands.execute(
      new DeliverProfileEventsCommand(clientId, subscriptionId, profileId, busy ?? 0),
    );
  }
}

@Injectable()
@HandlesJob(REDELIVER_EVENT)
export class RedeliverEventJob implements JobHandler<RedeliverEventPayload> {
  constructor(private readonly commands: CommandBus) {}

  async handle({ clientId, subscriptionId, eventId }: RedeliverEventPayload) {
    await this.commands.execute(new RedeliverEventCommand(clientId, subscriptionId, eventId));
  }
}

@Injectable()
@HandlesJob(REPLAY_PAUSED_EVENTS)
export class ReplayPausedEventsJob implements JobHandler<ReplayPausedEventsPayload> {
  constructor(private readonly commands: CommandBus) {}

  async handle({ clientId, subscriptionId }: ReplayPausedEventsPayload) {
    await this.commands.execute(new ReplayPausedEventsCommand(clientId, subscriptionId));
  }
}
