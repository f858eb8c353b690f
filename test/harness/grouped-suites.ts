import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '../..');

/**
 * Runs e2e files one after the other in this Jest test file (a group of suite-groups.js), each
 * inside a describe block named after its path: its top-level hooks apply to its own tests
 * only, and its afterAll (closing its api) runs before the next file's beforeAll starts one.
 */
export function runGroupedSuites(files: string[]): void {
  for (const file of files) {
    describe(file, () => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      require(join(ROOT, file));
    });
  }
}
