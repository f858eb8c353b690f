import { Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { HandlesJob, JobHandler } from '@app/shared';
import { RebuildReportsCommand } from '../commands/rebuild-reports/rebuild-reports.command';
import { REBUILD_REPORTS, type RebuildReportsPayload } from './report.job-definitions';

/* The job hands off to the command; the use case lives in its handler. */
@Injectable()
@HandlesJob(REBUILD_REPORTS)
export class RebuildReportsJob implements JobHandler<RebuildReportsPayload> {
  constructor(private readonly commands: CommandBus) {}

  async handle(payload: RebuildReportsPayload): Promise<void> {
    await this.commands.execute(new RebuildReportsCommand(payload.clientId, payload.restart));
  }
}
