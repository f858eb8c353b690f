import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..');
const LIBS = readdirSync(join(ROOT, 'libs'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();
const NUMBERS = [
  'zero',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
  'thirteen',
  'fourteen',
  'fifteen',
];

/** The `libs/<name>` a fenced block names at the start of a line (the layout listings). */
function listedLibs(markdown: string): string[] {
  const names = new Set<string>();
  for (const block of markdown.matchAll(/```[a-z]*\n([\s\S]*?)```/g))
    for (const line of block[1].matchAll(/^libs\/([a-z-]+)\s/gm)) names.add(line[1]);
  return [...names].sort();
}

/** The libs a mermaid diagram draws as nodes (`["libs/<name><br/>...`). */
function drawnLibs(markdown: string): string[] {
  const names = new Set<string>();
  for (const block of markdown.matchAll(/```mermaid\n([\s\S]*?)```/g))
    for (const node of block[1].matchAll(/\["libs\/([a-z-]+)</g)) names.add(node[1]);
  return [...names].sort();
}

/** "... N libs" in the prose: the number words. */
function countedLibs(markdown: string): string[] {
  return [...markdown.matchAll(/\b([a-z]+) libs\b/g)]
    .map((match) => match[1])
    .filter((word) => NUMBERS.includes(word));
}

/*
 * The README's layout and docs/architecture.md (its layout, its module diagram, the count in
 * its prose) name exactly the libs of libs/: a lib added or removed without its docs fails.
 */
describe('the docs name every lib', () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const architecture = readFileSync(join(ROOT, 'docs', 'architecture.md'), 'utf8');

  it('the README lists libs/ and counts them', () => {
    expect(listedLibs(readme)).toEqual(LIBS);
    expect(countedLibs(readme)).toEqual([NUMBERS[LIBS.length]]);
  });

  it('docs/architecture.md lists and draws libs/ and counts them', () => {
    expect(listedLibs(architecture)).toEqual(LIBS);
    expect(drawnLibs(architecture)).toEqual(LIBS);
    expect(countedLibs(architecture)).toEqual([NUMBERS[LIBS.length]]);
  });
});

/*
 * The lib order (eslint.config.mjs, LIB_RANKS) refuses an import of a later lib: a lint
 * rule that silently stopped matching would let the order go unnoticed.
 */
describe('the lib order', () => {
  const lint = (filePath: string, text: string) =>
    spawnSync(
      process.execPath,
      [
        join(ROOT, 'node_modules', 'eslint', 'bin', 'eslint.js'),
        '--stdin',
        '--stdin-filename',
        filePath,
      ],
      { cwd: ROOT, input: text, encoding: 'utf8' },
    );

  /** ESLint on a file at `filePath` that imports `name` from `from` and uses it. */
  const lintImport = (filePath: string, name: string, from: string) =>
    lint(filePath, `import { ${name} } from '${from}';\nexport const probe = ${name};\n`);

  /** ESLint refused the file (exit 1) with `message`. */
  const expectRefused = (result: ReturnType<typeof lint>, message: string) => {
    expect(result.status).toBe(1);
    expect(result.stdout).toContain(message);
  };

  it('refuses a later lib, and accepts an earlier one', () => {
    const later = lintImport('libs/profiles/src/order-probe.ts', 'ApplyStepCounts', '@app/reports');
    expectRefused(later, 'libs/profiles comes before it in the lib order');
    const sameRank = lintImport(
      'libs/consents/src/order-probe.ts',
      'PREFERENCE_PROFILE_RULES',
      '@app/preferences/profile-rules/preference-profile-rules',
    );
    expect(sameRank.status).toBe(1);
    const earlier = lintImport('libs/reports/src/order-probe.ts', 'ConsentStatus', '@app/config');
    expect(earlier.stdout).not.toContain('lib order');
    expect(earlier.status).toBe(0);
  });

  it("keeps profiles' flows behind its ports, and its domain under its flows", () => {
    const deep = lintImport(
      'libs/bulk/src/order-probe.ts',
      'ProfileReadModel',
      '@app/profiles/read/profile-read-model.service',
    );
    expectRefused(deep, 'import @app/profiles (its ports/ only)');
    const fromApp = lint(
      'apps/api/src/order-probe.ts',
      "import type { Profile } from '@app/profiles/domain/profile.schema';\nexport type Probe = Profile;\n",
    );
    expect(fromApp.status).toBe(1);
    const fixtures = lintImport(
      'libs/bulk/src/order-probe.spec.ts',
      'partialData',
      '@app/profiles/testing',
    );
    expect(fixtures.status).toBe(0);
    const domainUp = lintImport(
      'libs/profiles/src/domain/order-probe.ts',
      'ProfileReadModel',
      '../read/profile-read-model.service',
    );
    expectRefused(domainUp, "profiles' domain imports no flow");
  });
});
