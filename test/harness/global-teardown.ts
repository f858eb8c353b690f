// eslint-disable-next-line @typescript-eslint/no-require-imports
const engines = require('../../scripts/lib/engines.js');

export default async function globalTeardown(): Promise<void> {
  const started = (globalThis as { __pcpEngines?: unknown[] }).__pcpEngines ?? [];
  for (const child of started) await engines.stop(child);
}
