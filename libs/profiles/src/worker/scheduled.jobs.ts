import { Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { HandlesJob, JobCounts, JobHandler, type ScheduledRunPayload } from '@app/shared';
import { ExpireConsentsCommand } from '../commands/expire-consents/expire-consents.command';
import { NotifyConsentVersionsCommand } from '../commands/notify-consent-versions/notify-consent-versions.command';
import { PropagateDoNotContactCommand } from '../commands/propagate-do-not-contact/propagate-do-not-contact.command';
import {
  CONSENT_EXPIRY,
  CONSENT_VERSION_NOTIFICATION,
  DO_NOT_CONTACT_PROPAGATION,
} from './profile-jobs';

/*
 * The scheduled jobs of profiles (Bull repeatable jobs, defined in profile-jobs.ts): each run
 * hands off to its command, and what the command returns is recorded with the run.
 */

@Injectable()
@HandlesJob(CONSENT_EXPIRY)
export class ConsentExpiryJob implements JobHandler<ScheduledRunPayload, JobCounts> {
  constructor(private readonly commands: CommandBus) {}

  handle(payload: ScheduledRunPayload): Promise<JobCounts> {
    return this.commands.execute(new ExpireConsentsCommand(payload.maxPages));
  }
}

@Injectable()
@HandlesJob(CONSENT_VERSION_NOTIFICATION)
export class ConsentVersionNotificationJob implements JobHandler<ScheduledRunPayload, JobCounts> {
  constructor(private readonly commands: CommandBus) {}

  handle(payload: ScheduledRunPayload): Promise<JobCounts> {
    return this.commands.execute(new NotifyConsentVersionsCommand(payload.maxPages));
  }
}

@Injectable()
@HandlesJob(DO_NOT_CONTACT_PROPAGATION)
export class DoNotContactPropagationJob implements JobHandler<ScheduledRunPayload, JobCounts> {
  constructor(private readonly commands: CommandBus) {}

  handle(payload: ScheduledRunPayload): Promise<JobCounts> {
    return this.commands.execute(new PropagateDoNotContactCommand(payload.maxPages));
  }
}
