// Public surface of @app/reports: other libs and the apps import nothing deeper.
export { ReportsWorkerModule } from './reports-worker.module';
export { ReportsApiModule } from './reports-api.module';
export { ApplyStepCounts } from './services/apply-step-counts.service';
export { ReportRebuildsModule } from './report-rebuilds.module';
export { ReportRebuilds } from './services/report-rebuilds.service';
export { REPORTS_SETTINGS } from './reports-settings';
export { REPORT_PAGE_LINK_SECURITY_SCHEMES } from './http/page-link-security';
export * from './worker/report.job-definitions';
