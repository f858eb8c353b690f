import { commandJob } from '@app/shared';
import { RebuildReportsCommand } from '../commands/rebuild-reports/rebuild-reports.command';
import { REBUILD_REPORTS } from './report.job-definitions';

/* The job hands off to the command; the use case lives in its handler. */
export const RebuildReportsJob = commandJob(
  REBUILD_REPORTS,
  (payload) => new RebuildReportsCommand(payload.clientId, payload.restart),
);
