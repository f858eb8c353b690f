import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { currentCounts } from '../../domain/report-view';
import type { ReportCountsDto } from '../../dto/report.dto';
import { ReportCountStore } from '../../services/report-count-store.service';
import { ReportNamesReader } from '../../services/report-names.service';
import { ReportRebuilds } from '../../services/report-rebuilds.service';
import { reportStatus } from '../../services/report-status';
import { GetReportCountsQuery } from './get-report-counts.query';

/**
 * Reads the client's counts hash and its state in one round trip, and names and narrows
 * them in memory: the hash holds one field per configured combination that occurs, so the
 * cost is the same at a thousand profiles and at a million. Counts never built (a new
 * client, a Redis that lost its data) answer empty with their status, and a rebuild is
 * asked for.
 */
@QueryHandler(GetReportCountsQuery)
export class GetReportCountsHandler implements IQueryHandler<GetReportCountsQuery> {
  constructor(
    private readonly countStore: ReportCountStore,
    private readonly names: ReportNamesReader,
    private readonly rebuilds: ReportRebuilds,
  ) {}

  async execute({ clientId, filters }: GetReportCountsQuery): Promise<ReportCountsDto> {
    const [{ counts, meta }, names] = await Promise.all([
      this.countStore.current(clientId),
      this.names.of(clientId),
    ]);
    const status = reportStatus(meta);
    if (status === 'NotBuilt') await this.rebuilds.ensure(clientId);
    const channel = filters.channel !== undefined ? names.channel(filters.channel) : undefined;
    const rows = currentCounts(
      status === 'Building' || status === 'NotBuilt' ? new Map() : counts,
      names,
      {
        ...filters,
        ...(filters.channel !== undefined ? { channel: channel ?? filters.channel } : {}),
      },
    );
    return {
      Status: status,
      ...(meta.builtAt ? { BuiltAt: meta.builtAt } : {}),
      Drift: meta.drift,
      ...rows,
    };
  }
}
