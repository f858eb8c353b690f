import { DAILY_EVENTS } from './report-keys';
import type { CurrentCounts, DayCounts } from './report-view';

/*
 * CSV downloads of the reports (RFC 4180: CRLF line ends, fields quoted when they hold a
 * comma, a quote or a line break). A text cell that a spreadsheet would take for a formula
 * (=, +, -, @, tab, CR first) starts with an apostrophe: configured names are shown as text.
 */

function cell(value: string | number | undefined): string {
  if (value === undefined) return '';
  if (typeof value === 'number') return String(value);
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

const line = (cells: (string | number | undefined)[]) => `${cells.map(cell).join(',')}\r\n`;

/** One row per day, one column per event. */
export function dailyCsv(days: DayCounts[]): string {
  return (
    line(['Date', ...DAILY_EVENTS]) +
    days.map((day) => line([day.Date, ...DAILY_EVENTS.map((event) => day[event])])).join('')
  );
}

const COUNT_COLUMNS = [
  'Section',
  'CustomerType',
  'ConsentType',
  'Level',
  'ConsentVersion',
  'ProgramId',
  'ProgramName',
  'FilterId',
  'FilterName',
  'ChannelId',
  'PreferenceType',
  'MatchType',
  'ListId',
  'Status',
  'Count',
] as const;
type CountRow = Partial<Record<(typeof COUNT_COLUMNS)[number], string | number>>;

/** Every current count in one table: a Section column says which kind of row it is. */
export function countsCsv(counts: CurrentCounts): string {
  const rows: CountRow[] = [
    ...counts.Profiles.flatMap((row) => [
      { Section: 'Profiles', CustomerType: row.CustomerType, Status: 'Active', Count: row.Active },
      {
        Section: 'Profiles',
        CustomerType: row.CustomerType,
        Status: 'Inactive',
        Count: row.Inactive,
      },
    ]),
    ...counts.Consents.map((row) => ({ Section: 'Consents', ...row })),
    ...counts.Preferences.map((row) => ({ Section: 'Preferences', ...row })),
    ...counts.DoNotContact.map((row) => ({
      Section: 'DoNotContact',
      ListId: row.ListId,
      ChannelId: row.ChannelId,
      Count: row.ContactElements,
    })),
  ];
  return (
    line([...COUNT_COLUMNS]) + rows.map((row) => line(COUNT_COLUMNS.map((c) => row[c]))).join('')
  );
}
