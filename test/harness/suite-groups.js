'use strict';
// Suite groups: for the full run (`npm test` without arguments, JEST_SUITE_GROUPS=1) the e2e
// files of a project run in groups, several files to one Jest test file. Jest gives every test
// file its own module registry, so each file loaded the whole service (Nest, mongoose, Bull,
// every lib) again: about 1.7 s of CPU per file, a sixth of the run. A group loads it once and
// runs its files one after the other, each inside a describe block named after it, with its
// own hooks, api, database and tenants as when it runs alone (grouped-suites.ts).
// The groups are made from the files found at the start of the run (a new file joins one by
// itself) and written to test/groups/<project>/ (not committed): files of one folder together,
// in name order, cut where a group's expected time passes GROUP_SECONDS, so no group is so
// long that the run ends with it alone. A single file still runs by its own path, ungrouped.
const fs = require('node:fs');
const path = require('node:path');
// Jest's own matcher of testMatch globs: a group holds exactly what the project would run.
const { globsToMatcher } = require('jest-util');

const ROOT = path.resolve(__dirname, '../..');
const GROUPS_DIR = path.join(ROOT, 'test/groups');
// Seconds each file took in a full run on 2 cores (Jest's own timing of 2026-12-03); used to
// cut and order the groups only. A file not listed counts DEFAULT_SECONDS.
const SECONDS = require('./suite-seconds.json');
const DEFAULT_SECONDS = 10;
const GROUP_SECONDS = 120;

/** The files (paths relative to the root) that a project's testMatch globs match, sorted. */
function findSuites(testMatch) {
  const matches = globsToMatcher(testMatch.map((glob) => glob.replace('<rootDir>', ROOT)));
  const found = [];
  const walk = (dir) => {
    for (const entry of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
      const file = path.posix.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'groups') walk(file);
      } else if (matches(path.join(ROOT, file))) {
        found.push(file);
      }
    }
  };
  walk('test');
  return found.sort();
}

/** Groups of a folder's files in name order, each at most GROUP_SECONDS (or one file). */
function cut(files) {
  const byFolder = new Map();
  for (const file of files) {
    const folder = path.posix.dirname(file);
    byFolder.set(folder, [...(byFolder.get(folder) ?? []), file]);
  }
  const groups = [];
  for (const [folder, members] of byFolder) {
    let current = [];
    let seconds = 0;
    for (const file of members) {
      const own = SECONDS[file] ?? DEFAULT_SECONDS;
      if (current.length > 0 && seconds + own > GROUP_SECONDS) {
        groups.push({ folder, files: current, seconds });
        current = [];
        seconds = 0;
      }
      current.push(file);
      seconds += own;
    }
    if (current.length > 0) groups.push({ folder, files: current, seconds });
  }
  return groups;
}

/**
 * Writes the groups of one project (test/groups/<project>/*.group.ts, replacing what an
 * earlier run left) of the files its testMatch globs match, and returns the testMatch of
 * the groups.
 */
function writeSuiteGroups(project, testMatch) {
  const dir = path.join(GROUPS_DIR, project);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const groups = cut(findSuites(testMatch));
  const counters = new Map();
  const manifest = {};
  for (const group of groups) {
    const base =
      group.folder === 'test' ? 'root' : group.folder.replace(/^test\//, '').replace(/\//g, '-');
    const n = (counters.get(base) ?? 0) + 1;
    counters.set(base, n);
    const name = `${base}-${n}.group.ts`;
    fs.writeFileSync(
      path.join(dir, name),
      [
        '// Written by test/harness/suite-groups.js for a full run: not committed, not to edit.',
        "import { runGroupedSuites } from '../../harness/grouped-suites';",
        '',
        `runGroupedSuites(${JSON.stringify(group.files, null, 2)});`,
        '',
      ].join('\n'),
    );
    manifest[path.posix.join('test/groups', project, name)] = Math.round(group.seconds);
  }
  fs.writeFileSync(path.join(dir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  return `<rootDir>/test/groups/${project}/*.group.ts`;
}

/** A group file's expected seconds (its manifest), or undefined for any other file. */
function groupSeconds(testPath) {
  const relative = path.relative(ROOT, testPath).split(path.sep).join('/');
  const manifestFile = path.join(ROOT, path.dirname(relative), 'manifest.json');
  if (!relative.startsWith('test/groups/') || !fs.existsSync(manifestFile)) return undefined;
  return JSON.parse(fs.readFileSync(manifestFile, 'utf8'))[relative];
}

module.exports = { writeSuiteGroups, groupSeconds, SECONDS };
