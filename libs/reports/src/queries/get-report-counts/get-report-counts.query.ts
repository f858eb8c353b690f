import type { ReportFilters } from '../../domain/report-view';

/** The client's current counts, narrowed by the filters. */
export class GetReportCountsQuery {
  constructor(
    readonly clientId: string,
    readonly filters: ReportFilters,
  ) {}
}
