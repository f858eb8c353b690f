import type { ReportFilters } from '../../domain/report-view';

/** The client's daily counts from `from` to `to` (UTC days, at most MAX_SERIES_DAYS). */
export class GetReportSeriesQuery {
  constructor(
    readonly clientId: string,
    readonly from: string,
    readonly to: string,
    readonly filters: ReportFilters,
  ) {}
}
