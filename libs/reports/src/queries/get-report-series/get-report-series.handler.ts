import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { dayCounts, daysBetween } from '../../domain/report-view';
import type { ReportSeriesDto } from '../../dto/report.dto';
import { ReportCountStore } from '../../services/report-count-store.service';
import { ReportNamesReader } from '../../services/report-names.service';
import { reportStatus } from '../../services/report-status';
import { GetReportSeriesQuery } from './get-report-series.query';

/**
 * Reads one bounded hash per day of the range (at most 400, in one pipeline: one round
 * trip) and sums each day's events after the filters: the cost follows the range and the
 * configuration, never the number of profiles.
 */
@QueryHandler(GetReportSeriesQuery)
export class GetReportSeriesHandler implements IQueryHandler<GetReportSeriesQuery> {
  constructor(
    private readonly countStore: ReportCountStore,
    private readonly names: ReportNamesReader,
  ) {}

  async execute({ clientId, from, to, filters }: GetReportSeriesQuery): Promise<ReportSeriesDto> {
    const days = daysBetween(from, to);
    const [hashes, meta, names] = await Promise.all([
      this.countStore.days(clientId, days),
      this.countStore.meta(clientId),
      this.names.of(clientId),
    ]);
    const channel = filters.channel !== undefined ? names.channel(filters.channel) : undefined;
    const narrowed = {
      ...filters,
      ...(filters.channel !== undefined ? { channel: channel ?? filters.channel } : {}),
    };
    return {
      Status: reportStatus(meta),
      From: from,
      To: to,
      Days: days.map((day, k) => dayCounts(day, hashes[k], names, narrowed)),
    };
  }
}
