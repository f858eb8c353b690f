import { DAILY_EVENTS, type DailyEvent } from '../domain/report-keys';
import type { DayCounts } from '../domain/report-view';
import { type ChartSpec, type ReportPageInput, renderReportPage } from './report-page.view';

const dayOf = (date: string, k: number): DayCounts => {
  const day = { Date: date } as DayCounts;
  DAILY_EVENTS.forEach((event: DailyEvent, i) => (day[event] = k * 100 + i));
  return day;
};

const input = (extra: Partial<ReportPageInput> = {}): ReportPageInput => ({
  clientId: 'acme',
  status: 'Current',
  builtAt: '2026-12-02T03:59:43.123Z',
  drift: 0,
  from: '2026-12-01',
  to: '2026-12-02',
  link: { u: 'user', e: '1', s: 'sig' },
  counts: { Profiles: [], Consents: [], Preferences: [], DoNotContact: [] },
  days: [dayOf('2026-12-01', 1), dayOf('2026-12-02', 2)],
  assets: '/Profiles/v4/Reports/Assets',
  ...extra,
});

const chartsOf = (body: string): ChartSpec[] =>
  JSON.parse(/<script type="application\/json" id="report-charts">(.*?)<\/script>/s.exec(body)![1]);

/** The text of the status line, tags removed. */
const statusOf = (body: string): string =>
  /<p class="status" role="status">(.*?)<\/p>/s.exec(body)![1].replace(/<[^>]+>/g, '');

describe('the reporting page', () => {
  it('splits the daily series into small charts that carry every event once', () => {
    const { body } = renderReportPage(input());
    const daily = chartsOf(body).filter((chart) => chart.id.startsWith('daily-'));
    expect(daily.map((chart) => chart.id)).toEqual([
      'daily-consents',
      'daily-preferences',
      'daily-profiles',
    ]);
    for (const chart of daily) expect(chart.datasets.length).toBeLessThanOrEqual(5);
    // Each event's numbers once, over the three charts (event i holds 100 k + i on day k).
    const series = daily.flatMap((chart) => chart.datasets.map((set) => set.data));
    expect(series.map(([first]) => first - 100).sort((a, b) => a - b)).toEqual(
      DAILY_EVENTS.map((_, i) => i),
    );
    for (const chart of daily) {
      expect(chart.labels).toEqual(['2026-12-01', '2026-12-02']);
      expect(body).toContain(`data-chart="${chart.id}"`);
    }
  });

  it('says when the counts were built as a <time>, UTC text until the script writes it locally', () => {
    const { body } = renderReportPage(input());
    expect(body).toContain(
      '<time datetime="2026-12-02T03:59:43.123Z" data-local>2026-12-02 03:59 UTC</time>',
    );
    expect(statusOf(body)).toBe(
      'Counts are current: counted from every stored profile at 2026-12-02 03:59 UTC and kept by every applied write since.',
    );
    expect(body).not.toContain('Last rebuilt');
  });

  it('says the drift when some changes could not be counted exactly', () => {
    expect(statusOf(renderReportPage(input({ drift: 3 })).body)).toMatch(
      /since, but 3 changes could not be counted exactly \(a rebuild recounts them\)\.$/,
    );
  });

  it('names no time when the counts were never built', () => {
    const { body } = renderReportPage(input({ status: 'NotBuilt', builtAt: undefined }));
    expect(statusOf(body)).toBe('The counts have not been built yet; a build has been asked for.');
    expect(body).not.toContain('<time');
  });

  it('carries its icon inline, as an image the Content-Security-Policy allows', () => {
    const { body, headers } = renderReportPage(input());
    const icon = /<link rel="icon" href="([^"]+)">/.exec(body);
    expect(icon?.[1]).toMatch(/^data:image\/svg\+xml,%3Csvg/);
    expect(headers['content-security-policy']).toMatch(/img-src [^;]*\bdata:/);
  });

  it('puts every table in a named scroll region with its cue, hidden until the script sees it overflow', () => {
    const { body } = renderReportPage(input());
    const tables = body.match(/<table>/g)?.length ?? 0;
    const boxes = body.match(
      /<div class="table-box">\n<p class="scroll-cue" hidden>[^<]+<\/p>\n<div class="table" tabindex="0" role="region" aria-label="[^"]+: table"><table>/g,
    );
    expect(tables).toBe(5);
    expect(boxes?.length).toBe(tables);
  });
});
