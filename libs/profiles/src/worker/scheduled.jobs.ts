import { Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { HandlesJob, JobCounts, JobHandler, type ScheduledRunPayload } from '@app/shared';
import { ExpireConsentsCommand } from '../commands/expire-consents/expire-consents.command';
import { CONSENT_EXPIRY } from './profile-jobs';

/*
 * The scheduled job of profiles (a Bull repeatable job, defined in profile-jobs.ts): each
 * run hands off to its command, and what the command returns is recorded with the run.
 */

@Injectable()
@HandlesJob(CONSENT_EXPIRY)
export class ConsentExpiryJob implements JobHandler<ScheduledRunPayload, JobCounts> {
  constructor(private readonly commands: CommandBus) {}

  handle(payload: ScheduledRunPayload): Promise<JobCounts> {
    return this.commands.execute(new ExpireConsentsCommand(payload.maxPages));
  }
}
