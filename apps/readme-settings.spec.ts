import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { declaredSpecs, documentedDefault, type SettingSpec } from '@app/shared';
import { ALL_SETTINGS } from './settings-schema';

/** A row of the README's configuration table: its variables and its Default cell. */
interface Row {
  names: string[];
  defaultCell: string;
  line: string;
}

/** The rows of the table under "| Variable | Default | Meaning |" in README.md. */
function readmeRows(readme: string): Row[] {
  const lines = readme.split('\n');
  const header = lines.findIndex((line) =>
    /^\|\s*Variable\s*\|\s*Default\s*\|\s*Meaning\s*\|/.test(line),
  );
  if (header < 0) throw new Error('README.md has no "| Variable | Default | Meaning |" table');
  const rows: Row[] = [];
  for (const line of lines.slice(header + 2)) {
    if (!line.startsWith('|')) break;
    const cells = line
      .split('|')
      .slice(1, -1)
      .map((cell) => cell.trim());
    const names = [...cells[0].matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((match) => match[1]);
    rows.push({ names, defaultCell: cells[1] ?? '', line });
  }
  return rows;
}

/**
 * The Default cell says the declared default: exactly, or followed by a gloss in
 * parentheses (`43200000` (12 h)). An unset text or empty list: "unset" or "none".
 */
function defaultMatches(spec: SettingSpec, cell: string): boolean {
  const expected = documentedDefault(spec);
  const accepted = expected === 'unset' || expected === 'none' ? ['unset', 'none'] : [expected];
  return accepted.some((text) => cell === text || cell.startsWith(`${text} (`));
}

/** A table row for a variable, from its declaration (what to add to the README). */
function rowOf(spec: SettingSpec): string {
  return `| \`${spec.name}\` | ${documentedDefault(spec)} | ${spec.meaning} |`;
}

/** What is wrong between the README's table and the declared variables. */
function drift(readme: string): string[] {
  const rows = readmeRows(readme);
  const specs = declaredSpecs(ALL_SETTINGS);
  const declared = new Map(specs.map((spec) => [spec.name, spec]));
  const documented = new Map<string, Row>();
  const problems: string[] = [];
  for (const row of rows) {
    if (row.names.length === 0) problems.push(`a row names no variable: ${row.line}`);
    for (const name of row.names) {
      if (documented.has(name)) problems.push(`${name} has two rows`);
      documented.set(name, row);
      const spec = declared.get(name);
      if (!spec) problems.push(`${name} is in the README but no settings declaration declares it`);
      else if (!defaultMatches(spec, row.defaultCell))
        problems.push(
          `${name}: the README's default is ${row.defaultCell}, the declared one ${documentedDefault(spec)}`,
        );
    }
  }
  for (const spec of specs)
    if (!documented.has(spec.name))
      problems.push(`${spec.name} is declared but not in the README; add: ${rowOf(spec)}`);
  return problems;
}

describe("README's configuration table against the settings schema", () => {
  const readme = readFileSync(join(__dirname, '..', 'README.md'), 'utf8');

  it('lists every declared variable, only those, each with its declared default', () => {
    expect(drift(readme)).toEqual([]);
  });

  it('the check finds a missing row, an undeclared row and a wrong default', () => {
    const tampered = readme
      .replace(/^\| `PORT` \| `3000` \|/m, '| `PORT` | `8080` |')
      .replace(/^\| `QUEUE_PREFIX` \|.*\n/m, '')
      .replace(/^(\| `HOST` \|.*\n)/m, '$1| `NOT_A_SETTING` | unset | nothing |\n');
    expect(drift(tampered)).toEqual([
      "PORT: the README's default is `8080`, the declared one `3000`",
      'NOT_A_SETTING is in the README but no settings declaration declares it',
      expect.stringMatching(
        /^QUEUE_PREFIX is declared but not in the README; add: \| `QUEUE_PREFIX` \| `pcp` \|/,
      ),
    ]);
  });

  it('every declared variable has a one-line meaning, and one type wherever declared twice', () => {
    const all = ALL_SETTINGS.flatMap((declaration) => declaration.specs);
    for (const spec of all) expect(spec.meaning).toMatch(/^[^\n]{8,}$/);
    for (const spec of all) {
      const first = declaredSpecs(ALL_SETTINGS).find((other) => other.name === spec.name)!;
      expect({ name: spec.name, type: spec.type, default: documentedDefault(spec) }).toEqual({
        name: first.name,
        type: first.type,
        default: documentedDefault(first),
      });
    }
  });
});
