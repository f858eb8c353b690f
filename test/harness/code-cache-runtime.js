// @ts-check
/**
 * Jest's runtime with a V8 code cache per worker process. Jest compiles every module again
 * for every test file (a new module registry each), with no code cache: about 1 s of CPU
 * per e2e file, the api's 3,500 modules parsed again. Here a module's first compilation in a
 * worker keeps its script; the next test file's compilation of the same source takes the
 * cache that script makes then, which holds the functions compiled while the first file
 * ran as well. A source that differs (a module transformed otherwise) compiles anew; any
 * error falls back to Jest's own compilation, so its messages and ESM handling are unchanged.
 * Set as the projects' `runtime` in jest.config.js; PCP_JEST_CODE_CACHE=off turns it off.
 */
const { default: Runtime } = require('jest-runtime');
const vm = require('node:vm');

/** @type {Map<string, { source: string, script: vm.Script, data?: Buffer }>} */
const compiled = new Map();

/**
 * Jest's module wrapper as a script (as Jest itself compiled before it used compileFunction):
 * a script can make a code cache after it ran, a compiled function cannot.
 * @this {any} Jest's module executor
 * @param {string} source
 * @param {string} filename
 */
function compileWithCache(source, filename) {
  const context = this.environment.getVmContext();
  if (context == null) return null;
  let entry = compiled.get(filename);
  if (entry && entry.source !== source) entry = undefined;
  if (entry && !entry.data) entry.data = entry.script.createCachedData();
  const script = new vm.Script(
    `({"f":function(${this.injectedModuleParameters.join(',')}){${source}\n}});`,
    {
      filename,
      cachedData: entry?.data,
      importModuleDynamically: /** @type {any} */ (
        (
          /** @type {string} */ specifier,
          /** @type {unknown} */ _script,
          /** @type {any} */ attributes,
          /** @type {any[]} */ ...rest
        ) => this.dynamicImport(specifier, filename, context, attributes, rest[0])
      ),
    },
  );
  if (!entry || script.cachedDataRejected) compiled.set(filename, { source, script });
  return script.runInContext(context).f;
}

class CodeCacheRuntime extends Runtime {
  /** @param {ConstructorParameters<typeof Runtime>} args */
  constructor(...args) {
    super(...args);
    // jest-runtime's internal module executor (jest pinned in the lock file); without it,
    // Jest's own compilation.
    const executor = /** @type {any} */ (this).executor;
    if (process.env.PCP_JEST_CODE_CACHE === 'off' || typeof executor?.compile !== 'function')
      return;
    const jestCompile = executor.compile;
    executor.compile = function (/** @type {string} */ source, /** @type {string} */ filename) {
      try {
        return compileWithCache.call(this, source, filename);
      } catch {
        return jestCompile.call(this, source, filename);
      }
    };
  }
}

module.exports = CodeCacheRuntime;
