import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Controller, Get, NotFoundException, Param, Req, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import {
  ApiForbiddenResponse,
  ApiGoneResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiProduces,
  ApiTags,
} from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  ApiHtmlPageOk,
  ApiTextQuery,
  Clock,
  HTML_PAGE,
  type RawQuery,
  sendPage,
} from '@app/shared';
import type { ReportCountsDto, ReportSeriesDto } from '../dto/report.dto';
import { GetReportCountsQuery } from '../queries/get-report-counts/get-report-counts.query';
import { GetReportSeriesQuery } from '../queries/get-report-series/get-report-series.query';
import { ReportPageLinks } from '../services/report-page-links.service';
import { PAGE_SCRIPT } from '../views/page-script';
import { renderRefusedLink, renderReportPage } from '../views/report-page.view';
import { ReportPageLinkSecurity } from './page-link-security';
import { rangeOf } from './report-query';

const JS = { 'text/javascript': { schema: { type: 'string' } } };

/** The page's scripts: Chart.js as its package ships it (no CDN), and the page's own. */
const ASSETS: Record<string, () => string> = {
  'chart.umd.min.js': () =>
    readFileSync(join(dirname(require.resolve('chart.js')), 'chart.umd.min.js'), 'utf8'),
  'reports-page.js': () => PAGE_SCRIPT,
};

/**
 * The reporting page (docs/reports.md, "The page"): HTML for an operator of the client,
 * opened with a short-lived signed link (POST .../Reports/PageLinks), no API credential.
 * The charts (Chart.js, served from the api) and the tables beside them show the same
 * numbers as the JSON routes. A refused link (altered: 403; expired: 410) shows nothing.
 */
@ApiTags('Reports')
@ApiProduces('text/html')
@Controller()
export class ReportPageController {
  private readonly assets = new Map<string, string>();

  constructor(
    private readonly links: ReportPageLinks,
    private readonly queries: QueryBus,
    private readonly clock: Clock,
  ) {}

  @Get(':clientId/Reports/Page')
  @ApiParam({
    name: 'clientId',
    description: 'The client (tenant) id the link was made for (part of its signature)',
    schema: { type: 'string', minLength: 1, maxLength: 64 },
  })
  @ApiOperation({
    summary: "The client's reporting page (HTML, for a signed-in operator)",
    description:
      "Public: no API credential, the link's signature (s) over client, user (u) and expiry (e) is checked instead (constant time), then its expiry. Shows the consent shares by type and status, the preference shares by program and filter, the profiles by customer type, and the events of each day of the range (from, to: at most 400 days; default the last 30), each as a chart with a table beside it. Sent with a Content-Security-Policy (scripts from this origin only), no-store and no-referrer.",
  })
  @ReportPageLinkSecurity()
  @ApiTextQuery('u', { required: true, description: 'The user the link was made for' })
  @ApiTextQuery('e', { required: true, description: 'When the link expires, Unix seconds' })
  @ApiTextQuery('s', { required: true, description: 'HMAC-SHA-256 signature, base64url' })
  @ApiTextQuery('from', { description: 'The first UTC day (YYYY-MM-DD)' })
  @ApiTextQuery('to', { description: 'The last UTC day (YYYY-MM-DD)' })
  @ApiHtmlPageOk('The page')
  @ApiForbiddenResponse({
    description: 'The link is not valid: a page with no data',
    content: HTML_PAGE,
  })
  @ApiGoneResponse({ description: 'The link has expired: a page with no data', content: HTML_PAGE })
  async page(
    @Param('clientId') clientId: string,
    @Req() request: FastifyRequest & { query: RawQuery },
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const verified = this.links.verify(clientId, request.query);
    if ('refused' in verified) return sendPage(reply, renderRefusedLink(verified.refused));
    let range: { from: string; to: string };
    let rangeProblem: string | undefined;
    try {
      range = rangeOf(request.query, this.clock.now());
    } catch (error) {
      rangeProblem = `${error instanceof Error ? error.message : String(error)}: showing the last 30 days.`;
      range = rangeOf({}, this.clock.now());
    }
    const [counts, series] = await Promise.all([
      this.queries.execute<GetReportCountsQuery, ReportCountsDto>(
        new GetReportCountsQuery(clientId, {}),
      ),
      this.queries.execute<GetReportSeriesQuery, ReportSeriesDto>(
        new GetReportSeriesQuery(clientId, range.from, range.to, {}),
      ),
    ]);
    const route = request.routeOptions.url ?? '';
    const prefix = route.slice(0, Math.max(0, route.indexOf('/:clientId')));
    const { u, e, s } = request.query as Record<string, string>;
    sendPage(
      reply,
      renderReportPage({
        clientId,
        status: counts.Status,
        ...(counts.BuiltAt ? { builtAt: counts.BuiltAt } : {}),
        drift: counts.Drift,
        ...range,
        link: { u, e, s },
        counts,
        days: series.Days,
        assets: `${prefix}/Reports/Assets`,
        ...(rangeProblem ? { rangeProblem } : {}),
      }),
    );
  }

  @Get('Reports/Assets/:file')
  @ApiParam({
    name: 'file',
    enum: Object.keys(ASSETS),
    description: `A script of the reporting page: ${Object.keys(ASSETS).join(' or ')}`,
  })
  @ApiProduces('text/javascript')
  @ApiOperation({
    summary: 'A script of the reporting page (Chart.js, the page script)',
    description:
      'Public, the same for every client: Chart.js as its npm package ships it (chart.umd.min.js, MIT) and the page script that draws the charts. No CDN is used.',
  })
  @ApiOkResponse({ description: 'The script', content: JS })
  @ApiNotFoundResponse({ description: 'No such script' })
  asset(@Param('file') file: string, @Res() reply: FastifyReply): void {
    const load = Object.hasOwn(ASSETS, file) ? ASSETS[file] : undefined;
    if (!load) throw new NotFoundException(`No asset ${JSON.stringify(file)}`);
    let text = this.assets.get(file);
    if (text === undefined) this.assets.set(file, (text = load()));
    void reply
      .status(200)
      .header('content-type', 'text/javascript; charset=utf-8')
      .header('cache-control', 'public, max-age=3600')
      .header('x-content-type-options', 'nosniff')
      .send(text);
  }
}
