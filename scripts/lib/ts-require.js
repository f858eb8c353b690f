'use strict';
// Lets node require the TypeScript sources as they are (no build): each file is compiled
// alone when it is required (tsconfig.json's options), and `@app/<lib>` is libs/<lib>/src.
// For scripts that read the sources' declarations (settings-table.js) and for tests that
// start an app's main.ts in a process of its own: `node -r ./scripts/lib/ts-require.js`.
const Module = require('node:module');
const fs = require('node:fs');
const path = require('node:path');
const ts = require('typescript');

const ROOT = path.resolve(__dirname, '..', '..');
const { config } = ts.readConfigFile(path.join(ROOT, 'tsconfig.json'), ts.sys.readFile);
const compilerOptions = { ...config.compilerOptions, module: 'commonjs', sourceMap: false };

const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  const alias = /^@app\/([^/]+)(\/.*)?$/.exec(request);
  if (alias) request = path.join(ROOT, 'libs', alias[1], 'src', alias[2] ?? '');
  return resolve.call(this, request, ...rest);
};
require.extensions['.ts'] = (module, filename) => {
  const source = fs.readFileSync(filename, 'utf8');
  const { outputText } = ts.transpileModule(source, { compilerOptions, fileName: filename });
  module._compile(outputText, filename);
};
