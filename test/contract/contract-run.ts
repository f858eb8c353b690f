import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { TenantAdminService } from '@app/auth';
import { MAX_TOKEN_LIFETIME_SECONDS } from '@app/auth/domain/access-token';
import { configureTestTenant } from '../harness/configuration';
import { createTestTenant, type TestTenant } from '../harness/session';
import { startTestApp, type TestApp } from '../harness/test-app';

/*
 * The running api against its own OpenAPI document, with schemathesis (installed into
 * .tools/schemathesis by scripts/setup-schemathesis.sh): every operation, every check, all phases
 * (examples, coverage, fuzzing, stateful through the document's links), once per auth
 * scheme. SCHEMATHESIS_EXAMPLES sets the examples per operation (CI: a few; the soak run,
 * scripts/schemathesis-soak.sh: 1000). One spec file per auth scheme (bearer.contract-spec.ts,
 * customauth3.contract-spec.ts), so that the two runs go side by side in `npm test`.
 */
const ROOT = resolve(__dirname, '../..');
const SCHEMATHESIS = join(ROOT, '.tools/schemathesis/bin/schemathesis');
const EXAMPLES = Number(process.env.SCHEMATHESIS_EXAMPLES || 3);
const TIME_BUDGET_MS = Number(process.env.SCHEMATHESIS_TIMEOUT_MS || 15 * 60 * 1000);
// More arguments of `schemathesis run` (e.g. --include-operation-id X for a soak of a few).
const EXTRA_ARGS = (process.env.SCHEMATHESIS_EXTRA_ARGS ?? '').split(/\s+/).filter(Boolean);
// A file the report is streamed to as it runs (the soak's progress), else kept in memory only.
const LOG_FILE = process.env.SCHEMATHESIS_LOG_FILE;

function run(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; output: string }> {
  return new Promise((done) => {
    const child = spawn(SCHEMATHESIS, args, {
      cwd: ROOT,
      env: { ...process.env, ...env, NO_COLOR: '1' },
    });
    let output = '';
    const take = (chunk: Buffer) => {
      output += chunk.toString();
      if (LOG_FILE) appendFileSync(LOG_FILE, chunk);
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    child.on('close', (code) => done({ code, output }));
  });
}

export type ContractScheme = 'bearer' | 'customauth3';

/**
 * The checks a scheme's run leaves out (`--exclude-checks`; `--checks all` on the command
 * line overrides a check's `enabled` in the configuration file). The CUSTOMAUTH3 run sends
 * every request to the tenant's own path (contract_hooks, CONTRACT_FIXED_CLIENT_ID: under the
 * signed scheme another client id answers 404 without a body, which the document cannot
 * say), so a negative case whose violation was its client id becomes a valid request, and
 * the check that schema-violating requests are refused would judge that: it runs in the
 * bearer run, which sends every generated id as it is.
 */
const EXCLUDED_CHECKS: Record<ContractScheme, string[]> = {
  bearer: [],
  customauth3: ['negative_data_rejection'],
};

/** The describe block of one scheme's run: its own api, tenant and schemathesis run. */
export function describeContractRun(scheme: ContractScheme, title: string): void {
  describe(`the api against its OpenAPI document (schemathesis), ${scheme}`, () => {
    let app: TestApp;
    let tenant: TestTenant;
    let origin: string;
    const work = mkdtempSync(join(tmpdir(), 'schemathesis-'));

    beforeAll(async () => {
      if (!existsSync(SCHEMATHESIS)) {
        throw new Error(`${SCHEMATHESIS} is missing: run bash scripts/setup.sh`);
      }
      // Rate limits off: schemathesis sends as fast as it can, and 429 is not what is tested.
      app = await startTestApp({
        workers: 1,
        env: { RATE_LIMIT_READS_PER_SECOND: '0', RATE_LIMIT_WRITES_PER_SECOND: '0' },
      });
      tenant = await createTestTenant(app);
      // A soak outlasts the default token lifetime (1 h): its bearer must not expire mid-run.
      if (TIME_BUDGET_MS > 3_000_000) {
        await app.api
          .get(TenantAdminService)
          .setClientSettings(tenant.clientId, { tokenLifetimeSeconds: MAX_TOKEN_LIFETIME_SECONDS });
      }
      await configureTestTenant(app, tenant);
      await app.api.listen(0, '127.0.0.1');
      origin = `http://127.0.0.1:${(app.http.address() as AddressInfo).port}`;
    });
    afterAll(() => app?.close());

    async function fuzz(scheme: 'bearer' | 'customauth3'): Promise<void> {
      const config = join(work, `${scheme}.toml`);
      // The tenant's id goes into every path through contract_hooks (CONTRACT_CLIENT_ID), not a
      // [parameters] override: with one, the check of schema-violating requests judged the
      // valid request sent by the id generated for the case (say, longer than maxLength).
      const lines = [
        ...(scheme === 'bearer' ? [`[headers]`, `Authorization = "${await tenant.bearer()}"`] : []),
      ];
      // The committed part (per-operation check settings, test/contract/schemathesis.toml).
      const committed = readFileSync(join(ROOT, 'test/contract/schemathesis.toml'), 'utf8');
      writeFileSync(config, `${lines.join('\n')}\n\n${committed}`);
      const { code, output } = await run(
        [
          '--config-file',
          config,
          'run',
          `${origin}/Profiles/v4/docs-json`,
          '--checks',
          'all',
          ...(EXCLUDED_CHECKS[scheme].length
            ? ['--exclude-checks', EXCLUDED_CHECKS[scheme].join(',')]
            : []),
          '--phases',
          'examples,coverage,fuzzing,stateful',
          '--max-examples',
          String(EXAMPLES),
          '--workers',
          '2',
          '--seed',
          '42',
          '--no-shrink',
          ...EXTRA_ARGS,
        ],
        {
          // contract_hooks (a fresh Idempotency-Key per request) in both runs; the
          // CUSTOMAUTH3 run's module signs every request and loads contract_hooks.
          PYTHONPATH: join(ROOT, 'test/contract'),
          CONTRACT_CLIENT_ID: tenant.clientId,
          ...(scheme === 'customauth3'
            ? {
                SCHEMATHESIS_HOOKS: 'customauth3_hooks',
                CONTRACT_FIXED_CLIENT_ID: '1',
                CUSTOMAUTH3_CLIENT_ID: tenant.clientId,
                CUSTOMAUTH3_USER_ID: tenant.userId,
                CUSTOMAUTH3_KEY: tenant.apiHashKey,
              }
            : { SCHEMATHESIS_HOOKS: 'contract_hooks' }),
        },
      );
      // The whole report when it fails: which operation, which check, how to reproduce.
      expect({ code, output: code === 0 ? 'passed' : output }).toEqual({
        code: 0,
        output: 'passed',
      });
    }

    it(title, () => fuzz(scheme), TIME_BUDGET_MS);
  });
}
