'use strict';
// `npm run openapi:write`: writes openapi.json, the OpenAPI document the api serves at
// /Profiles/v4/docs-json, in its committed form. The api is built as the tests build it (the
// engine and Redis of the test harness, nothing listening): the document test runs with
// OPENAPI_WRITE=1, which writes the file instead of comparing it.
const { spawnSync } = require('node:child_process');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');

const result = spawnSync(
  process.execPath,
  [
    require.resolve('jest/bin/jest', { paths: [ROOT] }),
    '--selectProjects=e2e',
    '--runTestsByPath',
    'test/openapi-document.e2e-spec.ts',
    '--testNamePattern',
    'is committed as openapi.json',
  ],
  { cwd: ROOT, stdio: 'inherit', env: { ...process.env, OPENAPI_WRITE: '1' } },
);
if (result.status === 0) process.stderr.write('[openapi] wrote openapi.json\n');
process.exit(result.status === null ? 1 : result.status);
