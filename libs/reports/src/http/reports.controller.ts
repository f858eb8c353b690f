import { Get, HttpCode, Post, Req, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOkResponse, ApiOperation, ApiProduces } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiAuth, type Caller, CurrentCaller, TenantController } from '@app/auth';
import { Clock, type RawQuery } from '@app/shared';
import { countsCsv, dailyCsv } from '../domain/report-csv';
import { ReportCountsDto, ReportPageLinkDto, ReportSeriesDto } from '../dto/report.dto';
import { GetReportCountsQuery } from '../queries/get-report-counts/get-report-counts.query';
import { GetReportSeriesQuery } from '../queries/get-report-series/get-report-series.query';
import { ReportPageLinks } from '../services/report-page-links.service';
import {
  ApiReportFilters,
  ApiReportRange,
  FILTER_NAMES,
  filtersOf,
  MAX_SERIES_DAYS,
  RANGE_NAMES,
  rangeOf,
  refuseUnknown,
} from './report-query';

const COST =
  "Kept by the worker's apply step (and the import's, the expiry and do-not-contact writes), never by reading profiles: a read costs the same at any number of profiles (docs/reports.md).";
const CSV = { 'text/csv': { schema: { type: 'string' } } };

type QueryRequest = FastifyRequest & { query: RawQuery };

@TenantController(':clientId/Reports', {
  tag: 'Reports',
  badRequest: 'A bad query parameter; the Message names it and its value',
  notFound: 'Unknown client',
})
export class ReportsController {
  constructor(
    private readonly queries: QueryBus,
    private readonly clock: Clock,
    private readonly links: ReportPageLinks,
  ) {}

  @Get('Counts')
  @ApiAuth('reports', 'read')
  @ApiOperation({
    summary:
      "What the client's profiles hold now: profiles, consents, preferences, do-not-contact marks",
    description: `Profiles by customer type (active, inactive); consents by type, level (profile or contact element), version and status (Granted, Denied, Revoked, NotSet, Expired); preferences by program, filter, channel, type (OptIn, OptOut), status (Active, Expired, Archived) and match (Expressed, Implied); contact elements each do-not-contact list marks. Only active profiles and their active contact elements count. ${COST}`,
  })
  @ApiReportFilters()
  @ApiOkResponse({ type: ReportCountsDto })
  counts(@CurrentCaller() caller: Caller, @Req() request: QueryRequest): Promise<ReportCountsDto> {
    refuseUnknown(request.query, FILTER_NAMES);
    return this.queries.execute(
      new GetReportCountsQuery(caller.clientId, filtersOf(request.query)),
    );
  }

  @Get('Counts/Csv')
  @ApiAuth('reports', 'read')
  @ApiOperation({
    summary: 'The current counts as CSV (a download)',
    description: `The rows of GET .../Reports/Counts in one table, a Section column naming each row's kind. ${COST}`,
  })
  @ApiReportFilters()
  @ApiProduces('text/csv')
  @ApiOkResponse({ description: 'text/csv, as an attachment', content: CSV })
  async countsCsv(
    @CurrentCaller() caller: Caller,
    @Req() request: QueryRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<string> {
    refuseUnknown(request.query, FILTER_NAMES);
    const counts: ReportCountsDto = await this.queries.execute(
      new GetReportCountsQuery(caller.clientId, filtersOf(request.query)),
    );
    download(reply, `${caller.clientId}-counts.csv`);
    return countsCsv(counts);
  }

  @Get('Daily')
  @ApiAuth('reports', 'read')
  @ApiOperation({
    summary: 'What happened each UTC day of a range (at most 400 days)',
    description: `Per day: grants, denials, revocations, consent expiries, opt-ins, opt-outs, preference expiries, archives, do-not-contact marks, profiles created, deleted and erased; a write counts on the day it was accepted. At most ${MAX_SERIES_DAYS} days; default: the last 30. ${COST}`,
  })
  @ApiReportRange()
  @ApiReportFilters()
  @ApiOkResponse({ type: ReportSeriesDto })
  daily(@CurrentCaller() caller: Caller, @Req() request: QueryRequest): Promise<ReportSeriesDto> {
    return this.queries.execute(this.seriesQuery(caller, request.query));
  }

  @Get('Daily/Csv')
  @ApiAuth('reports', 'read')
  @ApiOperation({
    summary: 'The daily series as CSV (a download)',
    description: `One row per day of the range, one column per event, as GET .../Reports/Daily. ${COST}`,
  })
  @ApiReportRange()
  @ApiReportFilters()
  @ApiProduces('text/csv')
  @ApiOkResponse({ description: 'text/csv, as an attachment', content: CSV })
  async dailyCsv(
    @CurrentCaller() caller: Caller,
    @Req() request: QueryRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<string> {
    const series: ReportSeriesDto = await this.queries.execute(
      this.seriesQuery(caller, request.query),
    );
    download(reply, `${caller.clientId}-daily-${series.From}-${series.To}.csv`);
    return dailyCsv(series.Days);
  }

  @Post('PageLinks')
  @HttpCode(200)
  @ApiAuth('reports', 'read')
  @ApiOperation({
    summary: 'A short-lived signed link to the reporting page',
    description:
      "Answers the link of the client's reporting page (GET .../Reports/Page: charts and tables of the current shares and the daily series, the date range selectable), for the caller to open in a browser: no API credential is needed there, the link's HMAC-SHA-256 signature over client, user and expiry is (REPORTS_PAGE_LINK_MINUTES, default 15). No body. Nothing is stored per link.",
  })
  @ApiOkResponse({ type: ReportPageLinkDto })
  pageLink(@CurrentCaller() caller: Caller, @Req() request: FastifyRequest): ReportPageLinkDto {
    const route = request.routeOptions.url ?? '';
    const prefix = route.slice(0, Math.max(0, route.indexOf('/:clientId')));
    const { query, expiresAt } = this.links.sign(caller.clientId, caller.userId);
    const path = `${prefix}/${encodeURIComponent(caller.clientId)}/Reports/Page`;
    return {
      Url: `${request.protocol}://${request.host}${path}?${query}`,
      ExpiresAt: expiresAt.toISOString(),
    };
  }

  private seriesQuery(caller: Caller, query: RawQuery): GetReportSeriesQuery {
    refuseUnknown(query, [...RANGE_NAMES, ...FILTER_NAMES]);
    const { from, to } = rangeOf(query, this.clock.now());
    return new GetReportSeriesQuery(caller.clientId, from, to, filtersOf(query));
  }
}

function download(reply: FastifyReply, name: string): void {
  void reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${name.replace(/[^\w.-]/g, '_')}"`);
}
