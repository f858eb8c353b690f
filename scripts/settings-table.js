'use strict';
// Prints the README's configuration table (its header and one row per declared variable)
// from the settings schema: every lib's `defineSettings` declaration, as the apps list them
// (apps/settings-schema.ts). The README's table says more in its Meaning column; its names
// and defaults are checked against the schema by apps/readme-settings.spec.ts.
// Usage: npm run -s settings:table
const path = require('node:path');
require('./lib/ts-require');

const ROOT = path.resolve(__dirname, '..');
const { ALL_SETTINGS } = require(path.join(ROOT, 'apps', 'settings-schema.ts'));
const { declaredSpecs, documentedDefault } = require(path.join(ROOT, 'libs/shared/src'));

const lines = ['| Variable | Default | Meaning |', '|---|---|---|'];
for (const spec of declaredSpecs(ALL_SETTINGS))
  lines.push(`| \`${spec.name}\` | ${documentedDefault(spec)} | ${spec.meaning} |`);
process.stdout.write(`${lines.join('\n')}\n`);
