import { Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { HandlesJob, JOB_NAMES, JobCounts, JobHandler, JobPayloads } from '@app/shared';
import { ExpireConsentsCommand } from '../commands/expire-consents/expire-consents.command';
import { NotifyConsentVersionsCommand } from '../commands/notify-consent-versions/notify-consent-versions.command';
import { PropagateDoNotContactCommand } from '../commands/propagate-do-not-contact/propagate-do-not-contact.command';

/*
 * The scheduled jobs of profiles (Bull repeatable jobs, see SCHEDULED_JOBS): each run
 * hands off to its command, and what the command returns is recorded with the run.
 */

@Injectable()
@HandlesJob(JOB_NAMES.consentExpiry)
export class ConsentExpiryJob implements JobHandler<typeof JOB_NAMES.consentExpiry> {
  constructor(private readonly commands: CommandBus) {}

  handle(payload: JobPayloads[typeof JOB_NAMES.consentExpiry]): Promise<JobCounts> {
    return this.commands.execute(new ExpireConsentsCommand(payload.maxPages));
  }
}

@Injectable()
@HandlesJob(JOB_NAMES.consentVersionNotification)
export class ConsentVersionNotificationJob implements JobHandler<
  typeof JOB_NAMES.consentVersionNotification
> {
  constructor(private readonly commands: CommandBus) {}

  handle(payload: JobPayloads[typeof JOB_NAMES.consentVersionNotification]): Promise<JobCounts> {
    return this.commands.execute(new NotifyConsentVersionsCommand(payload.maxPages));
  }
}

@Injectable()
@HandlesJob(JOB_NAMES.doNotContactPropagation)
export class DoNotContactPropagationJob implements JobHandler<
  typeof JOB_NAMES.doNotContactPropagation
> {
  constructor(private readonly commands: CommandBus) {}

  handle(payload: JobPayloads[typeof JOB_NAMES.doNotContactPropagation]): Promise<JobCounts> {
    return this.commands.execute(new PropagateDoNotContactCommand(payload.maxPages));
  }
}
