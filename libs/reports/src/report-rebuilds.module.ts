import { Module } from '@nestjs/common';
import { ReportCounters } from './services/report-counters.service';
import { ReportRebuilds } from './services/report-rebuilds.service';

/**
 * Queuing rebuilds of a client's counts (the operator route, the admin CLI's
 * `rebuild-reports`, a reader that finds them missing). Needs Redis and a QueueModule.
 */
@Module({
  providers: [ReportCounters, ReportRebuilds],
  exports: [ReportCounters, ReportRebuilds],
})
export class ReportRebuildsModule {}
