import { Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { HandlesJob, JobCounts, JobHandler, type ScheduledRunPayload } from '@app/shared';
import { NotifyConsentVersionsCommand } from '../consent-versions/commands/notify-consent-versions/notify-consent-versions.command';
import { PropagateDoNotContactCommand } from '../do-not-contact/commands/propagate-do-not-contact/propagate-do-not-contact.command';
import { CONSENT_VERSION_NOTIFICATION, DO_NOT_CONTACT_PROPAGATION } from './consent-jobs';

/*
 * The scheduled jobs of consents (Bull repeatable jobs, defined in consent-jobs.ts): each
 * run hands off to its command, and what the command returns is recorded with the run.
 */

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
