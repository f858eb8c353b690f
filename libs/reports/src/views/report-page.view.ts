import {
  CONSENT_COUNT_STATUSES,
  CONSENT_EVENTS,
  DAILY_EVENTS,
  type DailyEvent,
  PREFERENCE_EVENTS,
  PROFILE_EVENTS,
} from '../domain/report-keys';
import type { CurrentCounts, DayCounts } from '../domain/report-view';
import type { ReportStatus } from '../dto/report.dto';
import { escapeHtml, FAVICON, Markup, markup, newNonce, pageHeaders } from './html';

/** One chart the page script draws (Chart.js), from the same numbers as its table. */
export interface ChartSpec {
  /** The canvas's `data-chart`. */
  id: string;
  type: 'bar' | 'line' | 'doughnut';
  /** Bars side by side (false) or stacked (true). */
  stacked: boolean;
  horizontal: boolean;
  labels: string[];
  datasets: { label: string; data: number[] }[];
}

export interface ReportPageInput {
  clientId: string;
  status: ReportStatus;
  /** When the last build of the counts from every stored profile ended (ISO instant). */
  builtAt?: string;
  /** Changes that could not be counted exactly since that build (ReportCountsDto.Drift). */
  drift?: number;
  from: string;
  to: string;
  /** The link's own parameters (u, e, s), kept by the date range form. */
  link: Record<string, string>;
  counts: CurrentCounts;
  days: DayCounts[];
  /** Where the api serves the page's scripts (`/Profiles/v4/Reports/Assets`). */
  assets: string;
  /** A problem with the date range the form sent (shown, the default range used instead). */
  rangeProblem?: string;
}

export interface RenderedPage {
  status: number;
  body: string;
  headers: Record<string, string>;
}

const CONSENT_STATUS_LABELS: Record<string, string> = {
  Granted: 'Granted',
  Denied: 'Denied',
  Revoked: 'Revoked',
  NotSet: 'Not set',
  Expired: 'Expired',
};
const PREFERENCE_COLUMNS = [
  ['OptIn', 'Active', 'Opt-in, active'],
  ['OptOut', 'Active', 'Opt-out, active'],
  ['*', 'Expired', 'Expired'],
  ['*', 'Archived', 'Archived'],
] as const;
const EVENT_LABELS: Record<DailyEvent, string> = {
  Grants: 'Grants',
  Denials: 'Denials',
  Revocations: 'Revocations',
  ConsentExpiries: 'Consent expiries',
  ConsentsMoved: 'Consents moved by merges',
  OptIns: 'Opt-ins',
  OptOuts: 'Opt-outs',
  PreferenceExpiries: 'Preference expiries',
  Archives: 'Archives',
  PreferencesMoved: 'Preferences moved by merges',
  DoNotContactMarks: 'Do-not-contact marks',
  ProfilesCreated: 'Profiles created',
  ProfilesDeleted: 'Profiles deleted',
  ProfilesErased: 'Profiles erased',
  ProfilesMerged: 'Profiles merged',
};
/** The daily series in small charts of a few series each (fifteen on one plot hide each other). */
const DAILY_GROUPS: readonly { id: string; title: string; events: readonly DailyEvent[] }[] = [
  { id: 'daily-consents', title: 'Consents', events: CONSENT_EVENTS },
  { id: 'daily-preferences', title: 'Preferences', events: PREFERENCE_EVENTS },
  {
    id: 'daily-profiles',
    title: 'Profiles and do-not-contact lists',
    events: [...PROFILE_EVENTS, 'DoNotContactMarks'],
  },
];
/** The status line's opening (without its full stop: statusLine may go on). */
const STATUS_TEXT: Record<ReportStatus, string> = {
  Current: 'Counts are current',
  Rebuilding: 'A rebuild of the counts is under way; until it ends, these are the counts',
  Building: 'The counts are being built; they show once the build ends',
  NotBuilt: 'The counts have not been built yet; a build has been asked for',
};

const percent = (part: number, whole: number) =>
  whole ? `${((100 * part) / whole).toFixed(1)} %` : '–';

/** Consents by type and status, summed over levels and versions. */
function consentChart(counts: CurrentCounts): { chart: ChartSpec; rows: Map<string, number[]> } {
  const rows = new Map<string, number[]>();
  for (const row of counts.Consents) {
    const values = rows.get(row.ConsentType) ?? CONSENT_COUNT_STATUSES.map(() => 0);
    values[CONSENT_COUNT_STATUSES.indexOf(row.Status as never)] += row.Count;
    rows.set(row.ConsentType, values);
  }
  const labels = [...rows.keys()];
  return {
    rows,
    chart: {
      id: 'consents',
      type: 'bar',
      stacked: true,
      horizontal: true,
      labels,
      datasets: CONSENT_COUNT_STATUSES.map((status, k) => ({
        label: CONSENT_STATUS_LABELS[status],
        data: labels.map((label) => rows.get(label)![k]),
      })),
    },
  };
}

/** Preferences by program and filter, by what they say now. */
function preferenceChart(counts: CurrentCounts): { chart: ChartSpec; rows: Map<string, number[]> } {
  const rows = new Map<string, number[]>();
  for (const row of counts.Preferences) {
    const label = `${row.ProgramName ?? `Program ${row.ProgramId}`} › ${row.FilterName ?? `Filter ${row.FilterId}`} (${row.ChannelId})`;
    const values = rows.get(label) ?? PREFERENCE_COLUMNS.map(() => 0);
    PREFERENCE_COLUMNS.forEach(([type, status], k) => {
      if (row.Status === status && (type === '*' || row.PreferenceType === type))
        values[k] += row.Count;
    });
    rows.set(label, values);
  }
  const labels = [...rows.keys()];
  return {
    rows,
    chart: {
      id: 'preferences',
      type: 'bar',
      stacked: true,
      horizontal: true,
      labels,
      datasets: PREFERENCE_COLUMNS.map(([, , label], k) => ({
        label,
        data: labels.map((name) => rows.get(name)![k]),
      })),
    },
  };
}

function profileChart(counts: CurrentCounts): ChartSpec {
  return {
    id: 'profiles',
    type: 'doughnut',
    stacked: false,
    horizontal: false,
    labels: counts.Profiles.map((row) => row.CustomerType),
    datasets: [{ label: 'Active profiles', data: counts.Profiles.map((row) => row.Active) }],
  };
}

function dailyCharts(days: DayCounts[]): ChartSpec[] {
  return DAILY_GROUPS.map(({ id, events }) => ({
    id,
    type: 'line',
    stacked: false,
    horizontal: false,
    labels: days.map((day) => day.Date),
    datasets: events.map((event) => ({
      label: EVENT_LABELS[event],
      data: days.map((day) => day[event]),
    })),
  }));
}

/**
 * An instant as `<time>`: the text sent is UTC (what a reader without the script sees); the
 * page script rewrites it in the reader's locale and time zone.
 */
function instant(iso: string): Markup {
  return markup`<time datetime="${iso}" data-local>${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC</time>`;
}

/**
 * The status line. `builtAt` is when the last build from every stored profile ended (a new
 * client's first build or an operator's rebuild alike: the data does not tell them apart);
 * since then every applied write has kept the counts, but for the changes counted as drift.
 */
function statusLine(input: ReportPageInput): Markup {
  if (!input.builtAt) return markup`${STATUS_TEXT[input.status]}.`;
  const drift = input.drift ?? 0;
  return markup`${STATUS_TEXT[input.status]}: counted from every stored profile at ${instant(input.builtAt)} and kept by every applied write since${
    drift
      ? `, but ${drift} ${drift === 1 ? 'change' : 'changes'} could not be counted exactly (a rebuild recounts them)`
      : ''
  }.`;
}

/** Table rows of counts by name, each ending with the first count's share of the row's total. */
function withFirstShare(rows: Map<string, number[]>): [string, (string | number)[]][] {
  return [...rows].map(([name, values]) => [
    name,
    [
      ...values,
      percent(
        values[0],
        values.reduce((a, b) => a + b, 0),
      ),
    ],
  ]);
}

/** A table with a caption, column headers and row headers (th scope). */
function table(caption: string, head: string[], rows: [string, (string | number)[]][]): Markup {
  return markup`<table>
<caption><span>${caption}</span></caption>
<thead><tr>${head.map((text, k) => markup`<th scope="col"${k ? markup` class="num"` : ''}>${text}</th>`)}</tr></thead>
<tbody>${
    rows.length
      ? rows.map(
          ([name, cells]) =>
            markup`<tr><th scope="row">${name}</th>${cells.map((cell) => markup`<td class="num">${cell}</td>`)}</tr>`,
        )
      : markup`<tr><td colspan="${head.length}">Nothing counted yet.</td></tr>`
  }</tbody>
</table>`;
}

/** A chart's canvas (described: the table beside it holds the numbers), or why there is none. */
function figure(id: string, label: string, empty: boolean, caption?: string): Markup {
  return markup`<figure>${caption ? markup`<figcaption>${caption}</figcaption>` : ''}${
    empty
      ? markup`<p class="empty">No data to draw.</p>`
      : markup`<div class="plot"><canvas id="chart-${id}" data-chart="${id}" role="img" aria-label="${label}"></canvas></div>`
  }</figure>`;
}

/**
 * A table in a box that scrolls sideways when the table is wider: a focusable, named region
 * (keyboard users scroll it too), with shadows at the edges that have more columns and a
 * cue the page script shows while it overflows.
 */
function tableBox(name: string, tableMarkup: Markup): Markup {
  return markup`<div class="table-box">
<p class="scroll-cue" hidden>Scroll sideways for more columns →</p>
<div class="table" tabindex="0" role="region" aria-label="${name}: table">${tableMarkup}</div>
</div>`;
}

/** A chart (or a row of small charts) and its table beside it, or under it when `wide`. */
function section(title: string, id: string, figures: Markup, tableMarkup: Markup, wide = false) {
  return markup`<section aria-labelledby="${id}-title" class="${wide ? 'wide' : ''}">
<h2 id="${id}-title">${title}</h2>
<div class="pair">
${figures}
${tableBox(title, tableMarkup)}
</div>
</section>`;
}

// The scroll shadows: white covers that move with the content (`local`) over shadows fixed
// to the box's edges (`scroll`), so a shadow shows only on a side with more to see.
const STYLE = `
body{font:15px/1.45 system-ui,sans-serif;margin:0 auto;max-width:1200px;padding:1rem 1.5rem;color:#1b1b1b}
@media (max-width:600px){body{padding:.75rem 1rem}}
h1{font-size:1.5rem;overflow-wrap:anywhere}h2{font-size:1.2rem;margin-top:2rem}
form{display:flex;gap:1rem;align-items:end;flex-wrap:wrap;margin:1rem 0}
label{display:flex;flex-direction:column;font-weight:600}
input,button{font:inherit;padding:.3rem .5rem}
button{background:#1d4ed8;color:#fff;border:0;border-radius:4px;padding:.4rem 1rem;cursor:pointer}
button:focus,input:focus{outline:3px solid #f59e0b;outline-offset:2px}
.pair{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:1.5rem;align-items:start}
.wide .pair{grid-template-columns:minmax(0,1fr)}
@media (max-width:800px){.pair{grid-template-columns:minmax(0,1fr)}}
.charts{display:grid;grid-template-columns:repeat(auto-fit,minmax(300px,1fr));gap:1.5rem}
figure{margin:0;min-width:0}
figcaption{font-weight:600;margin-bottom:.25rem}
.plot{position:relative;height:300px}
.table-box{min-width:0}
.scroll-cue{margin:0 0 .25rem;font-size:14px;color:#525252;text-align:right}
.table{max-height:420px;overflow:auto;container-type:inline-size;
background:linear-gradient(to right,#fff 40%,#fff0) left/32px 100% no-repeat local,
linear-gradient(to left,#fff 40%,#fff0) right/32px 100% no-repeat local,
radial-gradient(farthest-side at 0 50%,#0003,#0000) left/12px 100% no-repeat scroll,
radial-gradient(farthest-side at 100% 50%,#0003,#0000) right/12px 100% no-repeat scroll}
table{border-collapse:collapse;width:100%}
caption{text-align:left;font-weight:600;padding:.3rem 0}
caption span{position:sticky;left:0;display:inline-block;max-width:100cqi}
th,td{border-bottom:1px solid #d4d4d4;padding:.25rem .5rem;text-align:left;font-size:14px}
thead th{position:sticky;top:0;background:#fff;z-index:1}
tbody th{position:sticky;left:0;background:#fff;box-shadow:inset -1px 0 #d4d4d4;min-width:7rem}
thead th:first-child{left:0;z-index:2;box-shadow:inset -1px 0 #d4d4d4}
thead th{vertical-align:bottom}
.wide tbody th{white-space:nowrap}
.table:focus{outline:3px solid #f59e0b;outline-offset:2px}
.num{text-align:right;font-variant-numeric:tabular-nums}
.status{padding:.5rem .75rem;background:#eef2ff;border-left:4px solid #1d4ed8}
.problem{padding:.5rem .75rem;background:#fef2f2;border-left:4px solid #b91c1c}
.empty{color:#525252}
`;

/** JSON inside a script element: `<` escaped, so no text can close the element. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

export function renderReportPage(input: ReportPageInput): RenderedPage {
  const nonce = newNonce();
  const { counts, days } = input;
  const consents = consentChart(counts);
  const preferences = preferenceChart(counts);
  const charts = [consents.chart, preferences.chart, profileChart(counts), ...dailyCharts(days)];
  const totals = DAILY_EVENTS.map((event) => days.reduce((sum, day) => sum + day[event], 0));
  const body = markup`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Reports: ${input.clientId}</title>
${FAVICON}
<style nonce="${nonce}">${STYLE}</style>
</head>
<body>
<main>
<h1>Consents and preferences of ${input.clientId}</h1>
<p class="status" role="status">${statusLine(input)}</p>
${input.rangeProblem ? markup`<p class="problem" role="alert">${input.rangeProblem}</p>` : ''}
<form method="get" aria-label="Date range">
${Object.entries(input.link).map(([name, value]) => markup`<input type="hidden" name="${name}" value="${value}">`)}
<label for="from">From (UTC day)<input type="date" id="from" name="from" value="${input.from}" required></label>
<label for="to">To (UTC day)<input type="date" id="to" name="to" value="${input.to}" required></label>
<button type="submit">Show</button>
</form>
${section(
  'Consents by type and status',
  'consents',
  figure(
    'consents',
    'Bar chart: consents by consent type, stacked by status. The table beside it lists the numbers.',
    consents.rows.size === 0,
  ),
  table(
    'Consents now (profile and contact-element level)',
    [
      'Consent type',
      ...CONSENT_COUNT_STATUSES.map((s) => CONSENT_STATUS_LABELS[s]),
      'Granted share',
    ],
    withFirstShare(consents.rows),
  ),
)}
${section(
  'Preferences by program and filter',
  'preferences',
  figure(
    'preferences',
    'Bar chart: preferences by program and filter, stacked by what they say now. The table beside it lists the numbers.',
    preferences.rows.size === 0,
  ),
  table(
    'Preferences now (expressed and implied)',
    [
      'Program › filter (channel)',
      ...PREFERENCE_COLUMNS.map(([, , label]) => label),
      'Opt-in share',
    ],
    withFirstShare(preferences.rows),
  ),
)}
${section(
  'Profiles by customer type',
  'profiles',
  figure(
    'profiles',
    'Doughnut chart: active profiles by customer type. The table beside it lists the numbers.',
    counts.Profiles.length === 0,
  ),
  table(
    'Profiles now',
    ['Customer type', 'Active', 'Inactive', 'Share of active'],
    counts.Profiles.map((row) => [
      row.CustomerType,
      [
        row.Active,
        row.Inactive,
        percent(
          row.Active,
          counts.Profiles.reduce((sum, each) => sum + each.Active, 0),
        ),
      ],
    ]),
  ),
)}
${section(
  `What happened each day, ${input.from} to ${input.to}`,
  'daily',
  markup`<div class="charts">${DAILY_GROUPS.map(({ id, title, events }) =>
    figure(
      id,
      `Line chart: ${events.map((event) => EVENT_LABELS[event].toLowerCase()).join(', ')} per UTC day of the range. The table below lists the numbers.`,
      days.length === 0,
      title,
    ),
  )}</div>`,
  table(
    `Events per day (UTC), total ${totals.reduce((a, b) => a + b, 0)}`,
    ['Day', ...DAILY_EVENTS.map((event) => EVENT_LABELS[event])],
    days.map((day) => [day.Date, DAILY_EVENTS.map((event) => day[event])]),
  ),
  true,
)}
<section aria-labelledby="dnc-title">
<h2 id="dnc-title">Do-not-contact lists</h2>
${tableBox(
  'Do-not-contact lists',
  table(
    'Contact elements each list marks now',
    ['List', 'Channel', 'Contact elements'],
    counts.DoNotContact.map((row) => [`List ${row.ListId}`, [row.ChannelId, row.ContactElements]]),
  ),
)}
</section>
</main>
<script type="application/json" id="report-charts">${markupJson(charts)}</script>
<script src="${input.assets}/chart.umd.min.js"></script>
<script src="${input.assets}/reports-page.js"></script>
</body>
</html>`;
  return { status: 200, body: body.text, headers: pageHeaders(nonce) };
}

/** Trusted: JSON of numbers and configured names, `<` escaped (no element can close). */
function markupJson(value: unknown): Markup {
  return new Markup(scriptJson(value));
}

/** The page for a refused link: nothing of the client's counts. */
export function renderRefusedLink(refusal: 'invalid' | 'expired'): RenderedPage {
  const nonce = newNonce();
  const title = refusal === 'expired' ? 'This link has expired' : 'This link is not valid';
  const text =
    refusal === 'expired'
      ? 'Reporting links are short-lived. Ask for a new one (POST .../Reports/PageLinks).'
      : 'The link was changed or was not made by this service.';
  return {
    status: refusal === 'expired' ? 410 : 403,
    headers: pageHeaders(nonce),
    body: `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>${FAVICON.text}
<style nonce="${nonce}">${STYLE}</style></head>
<body><main><h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p></main></body></html>`,
  };
}
