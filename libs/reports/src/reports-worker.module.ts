import { Module } from '@nestjs/common';
import { ProfilePortsModule } from '@app/profiles';
import { settingsProvider } from '@app/shared';
import { RebuildReportsHandler } from './commands/rebuild-reports/rebuild-reports.handler';
import { ReportsSettings } from './reports-settings';
import { ReportCountStore } from './services/report-count-store.service';
import { ApplyStepCounts } from './services/apply-step-counts.service';
import { RebuildReportsJob } from './worker/rebuild-reports.jobs';

/**
 * The worker side of the reports (docs/reports.md): ApplyStepCounts, the counts the apply
 * step keeps (one of the `extensions` handed to ProfilesWorkerModule.register), and the
 * rebuild job. Reads profiles only through Profiles' ProfileCountSource (by `_id`).
 */
@Module({
  imports: [ProfilePortsModule],
  providers: [
    settingsProvider(ReportsSettings),
    ReportCountStore,
    ApplyStepCounts,
    RebuildReportsHandler,
    RebuildReportsJob,
  ],
  exports: [ApplyStepCounts],
})
export class ReportsWorkerModule {}
