import { Module } from '@nestjs/common';
import { ReportCountStore } from './services/report-count-store.service';
import { ReportRebuilds } from './services/report-rebuilds.service';

/**
 * Queuing rebuilds of a client's counts (the operator route, the admin CLI's
 * `rebuild-reports`, a reader that finds them missing). Needs Redis and a QueueModule.
 */
@Module({
  providers: [ReportCountStore, ReportRebuilds],
  exports: [ReportCountStore, ReportRebuilds],
})
export class ReportRebuildsModule {}
