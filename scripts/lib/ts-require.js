'use strict';
// Lets node require the TypeScript sources as they are (no build): each file is compiled
// alone when it is required (tsconfig.json's options), and `@app/<lib>` is libs/<lib>/src.
// For scripts that read the sources' declarations (settings-table.js) and for tests that
// start an app's main.ts in a process of its own: `node -r ./scripts/lib/ts-require.js`.
const Module = require('node:module');
const fs = require('node:fs');
const path = require('node:path');
const crypto = require('node:crypto');
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
// Each output is kept by the hash of its input: a process started from the sources (a test
// starts several) compiles only what changed since, not the app's ~1,000 files each time.
const CACHE = path.join(ROOT, 'node_modules', '.cache', 'ts-require');
const OPTIONS_KEY = `${ts.version}\0${JSON.stringify(compilerOptions)}`;

function transpiled(source, filename) {
  const key = crypto
    .createHash('sha256')
    .update(`${OPTIONS_KEY}\0${filename}\0`)
    .update(source)
    .digest('hex');
  const cached = path.join(CACHE, `${key}.js`);
  try {
    return fs.readFileSync(cached, 'utf8');
  } catch {
    // Not compiled yet.
  }
  const { outputText } = ts.transpileModule(source, { compilerOptions, fileName: filename });
  try {
    // Written aside and renamed: processes compiling the same file at once each read whole.
    fs.mkdirSync(CACHE, { recursive: true });
    const aside = `${cached}.${process.pid}`;
    fs.writeFileSync(aside, outputText);
    fs.renameSync(aside, cached);
  } catch {
    // A cache that cannot be written only costs the compilation next time.
  }
  return outputText;
}

require.extensions['.ts'] = (module, filename) => {
  module._compile(transpiled(fs.readFileSync(filename, 'utf8'), filename), filename);
};
