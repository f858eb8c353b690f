import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/*
 * The api's Node flags are written in three places that cannot import each other: the
 * launcher's and the benches' list (scripts/lib/api-node-flags.js), `npm run start:api`
 * (package.json) and the container's CMD (deploy/Dockerfile). They must not drift apart: a
 * bench would then measure another process than the one that runs.
 */
const ROOT = join(__dirname, '..', '..', '..');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { API_NODE_FLAGS } = require(join(ROOT, 'scripts/lib/api-node-flags.js')) as {
  API_NODE_FLAGS: string[];
};

describe('the api process runs with the same Node flags everywhere', () => {
  it('has flags to check', () => {
    expect(API_NODE_FLAGS).toContain('--max-semi-space-size=128');
  });

  it('npm run start:api passes them before the entry', () => {
    const scripts = (
      JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
        scripts: Record<string, string>;
      }
    ).scripts;
    expect(scripts['start:api']).toBe(
      ['node', ...API_NODE_FLAGS, 'dist/apps/api/apps/api/src/main.js'].join(' '),
    );
  });

  it("the Dockerfile's api target passes them before the entry", () => {
    const dockerfile = readFileSync(join(ROOT, 'deploy/Dockerfile'), 'utf8');
    const apiTarget = dockerfile.slice(
      dockerfile.indexOf('AS api'),
      dockerfile.indexOf('AS worker'),
    );
    const cmd = /^CMD (\[.*\])$/m.exec(apiTarget)?.[1];
    expect(cmd && JSON.parse(cmd)).toEqual([
      'node',
      ...API_NODE_FLAGS,
      'dist/apps/api/apps/api/src/main.js',
    ]);
  });
});
