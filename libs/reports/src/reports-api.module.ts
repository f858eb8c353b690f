import { Module } from '@nestjs/common';
import { ApiAuthSupportModule } from '@app/auth';
import { ConfigurationReaderModule } from '@app/config';
import { settingsProvider } from '@app/shared';
import { ReportPageController } from './http/report-page.controller';
import { ReportRebuildsController } from './http/report-rebuilds.controller';
import { ReportsController } from './http/reports.controller';
import { GetReportCountsHandler } from './queries/get-report-counts/get-report-counts.handler';
import { GetReportSeriesHandler } from './queries/get-report-series/get-report-series.handler';
import { ReportsSettings } from './reports-settings';
import { ReportNamesReader } from './services/report-names.service';
import { ReportPageLinks } from './services/report-page-links.service';
import { ReportRebuildsModule } from './report-rebuilds.module';

/**
 * The reports' routes (docs/reports.md): current counts, daily series, their CSV, the
 * reporting page and its signed links, and the operator's rebuild. Reads only Redis (the
 * counts) and the cached configuration (names): never a profile.
 */
@Module({
  imports: [ApiAuthSupportModule, ConfigurationReaderModule, ReportRebuildsModule],
  controllers: [ReportsController, ReportPageController, ReportRebuildsController],
  providers: [
    settingsProvider(ReportsSettings),
    ReportNamesReader,
    ReportPageLinks,
    GetReportCountsHandler,
    GetReportSeriesHandler,
  ],
})
export class ReportsApiModule {}
