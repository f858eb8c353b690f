import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually } from '../harness/test-app';
import { outputPattern, runnableBlocks, runnableMarks, type Step, stepsOf } from './readme-blocks';

const ROOT = join(__dirname, '..', '..');
const README_ORIGIN = 'http://127.0.0.1:3000';

interface BashRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** A free loopback port (the README's 3000 may be taken by the developer's own stack). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error()),
      );
    });
  });
}

/**
 * The README's runnable blocks (`<!-- runnable -->`, see README.md "Keeping the README
 * runnable"), run with `bash -e` in the checkout against a stack started as `npm start`
 * starts it (scripts/launch.js, the built api and worker), on the harness's engine and Redis
 * with a database and prefix of its own and a DATA_DIR of its own (its runtime.json is what
 * `npm run -s admin` in the blocks finds). Each `# => ` output is checked.
 */
jest.setTimeout(300_000);

describe('README: the runnable blocks run as written', () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const steps: Step[] = runnableBlocks(readme).flatMap(stepsOf);
  const dataDir = mkdtempSync(join(tmpdir(), 'pcp-readme-'));
  let origin = '';
  let launcher: ChildProcess | undefined;
  let launcherOutput = '';

  /** The README's origin replaced by the test stack's; nothing else is changed. */
  const asRun = (script: string) => script.replaceAll(README_ORIGIN, origin);

  /** The environment of a developer's shell: no database or Redis of the test run's. */
  function shellEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
    const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, ...extra };
    for (const name of ['MONGODB_URI', 'REDIS_URL', 'JWT_SECRET', 'QUEUE_PREFIX', 'PORT']) {
      if (!(name in extra)) delete env[name];
    }
    return env;
  }

  function bash(script: string, extra: Record<string, string> = {}): Promise<BashRun> {
    return new Promise((resolve, reject) => {
      const child = spawn('bash', ['-e', '-o', 'pipefail', '-c', script], {
        cwd: ROOT,
        env: shellEnv(extra),
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.on('error', reject);
      child.on('close', (status) => resolve({ status, stdout, stderr }));
    });
  }

  /** The steps as one script, each step's output after a marker line of its own. */
  const STEP_MARK = '@@readme-step';
  const withMarks = (chosen: Step[]) =>
    chosen.map((step, i) => `echo '${STEP_MARK} ${i}'\n${asRun(step.script)}`).join('\n');
  function outputsOf(stdout: string): string[] {
    return stdout
      .split(new RegExp(`^${STEP_MARK} \\d+\\n`, 'm'))
      .slice(1)
      .map((output) => output.replace(/\n$/, ''));
  }

  beforeAll(async () => {
    // As `npm start`: built when the sources changed (a no-op when up to date).
    const build = spawnSync(process.execPath, ['scripts/build-if-stale.js'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    expect(build.status).toBe(0);

    const port = await freePort();
    origin = `http://127.0.0.1:${port}`;
    const id = randomBytes(6).toString('hex');
    launcher = spawn(process.execPath, ['scripts/launch.js'], {
      cwd: ROOT,
      env: shellEnv({
        PORT: String(port),
        MONGODB_URI: `${process.env.TEST_MONGODB_BASE}readme_${id}`,
        REDIS_URL: process.env.TEST_REDIS_URL!,
        QUEUE_PREFIX: `readme-${id}`,
        // Suites run side by side on a loaded machine: the PATCH's wait for the worker and
        // every request's deadline get room (the defaults are tested where they matter).
        SYNC_WRITE_TIMEOUT_MS: '60000',
        REQUEST_DEADLINE_MS: '10000',
      }),
    });
    launcher.stdout!.on('data', (chunk: Buffer) => (launcherOutput += chunk.toString()));
    launcher.stderr!.on('data', (chunk: Buffer) => (launcherOutput += chunk.toString()));
    await eventually(async () => {
      if (launcher!.exitCode !== null) {
        throw new Error(`the launcher exited (${launcher!.exitCode}): ${launcherOutput}`);
      }
      return launcherOutput.includes(`Base URL:   ${origin}/Profiles/v4`) ? true : undefined;
    }, 240_000);
  }, 900_000);

  afterAll(async () => {
    if (launcher && launcher.exitCode === null) {
      const exited = new Promise((resolve) => launcher!.once('exit', resolve));
      launcher.kill('SIGTERM');
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('has marked blocks, each mark before a shell block, with outputs to check', () => {
    expect(runnableBlocks(readme).length).toBe(runnableMarks(readme));
    expect(runnableMarks(readme)).toBeGreaterThan(0);
    expect(steps.filter((step) => step.expected.length > 0).length).toBeGreaterThanOrEqual(4);
    // The block's requests use the README's origin (which the test replaces).
    expect(steps.some((step) => step.script.includes(README_ORIGIN))).toBe(true);
  });

  it('runs every block in order with bash -e; each command prints what the README shows', async () => {
    const run = await bash(withMarks(steps));
    expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
    const outputs = outputsOf(run.stdout);
    expect(outputs.length).toBe(steps.length);
    steps.forEach((step, i) => {
      if (step.expected.length === 0) return;
      expect({ step: step.script, output: outputs[i] }).toEqual({
        step: step.script,
        output: expect.stringMatching(outputPattern(step.expected)),
      });
    });
  });

  /** The steps that make the credentials and the token (the first two of the block). */
  const credentialSteps = () => steps.filter((step) => /\b(CREDS|TOKEN)=/.test(step.script));

  it('run again, the credentials step rotates the existing client secret and the token works', async () => {
    // demo exists after the first run (this test's own when it runs alone).
    await bash(withMarks(credentialSteps()));
    const read = `curl -sS -o /dev/null -w '%{http_code}\\n' ${origin}/Profiles/v4/demo/ConsentStatus -H "Authorization: Bearer $TOKEN"`;
    const run = await bash(`${withMarks(credentialSteps())}\n${read}`);
    expect(run.status).toBe(0);
    // create-client says why it did not create, then rotate-secret answers.
    expect(run.stderr).toBe('Client demo already exists\n');
    expect(run.stdout.trim().split('\n').pop()).toBe('200');
  });

  it('a refused token request stops the script with the answer', async () => {
    const tokenStep = credentialSteps().find((step) => step.script.includes('TOKEN='))!;
    const run = await bash(`${asRun(tokenStep.script)}\necho 'not reached'`, {
      OAUTH_CLIENT_ID: 'no-such-client',
      OAUTH_CLIENT_SECRET: 'wrong',
    });
    expect(run.status).not.toBe(0);
    expect(run.stdout).not.toContain('not reached');
    expect(run.stderr).toBe(
      'No token: {"Message":"invalid_client: invalid client_id no-such-client","error":"invalid_client","error_description":"invalid client_id no-such-client"}\n',
    );
  });

  it('npm run -s admin prints its JSON alone, and an up-to-date build says nothing', async () => {
    await bash(withMarks(credentialSteps()));
    const run = await bash('npm run -s admin -- show-client --client-id demo');
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual({
      clientId: 'demo',
      oauthClientIds: [expect.stringMatching(/^[A-Za-z0-9]{48}$/)],
    });
    const build = spawnSync(process.execPath, ['scripts/build-if-stale.js'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    expect({ status: build.status, stdout: build.stdout, stderr: build.stderr }).toEqual({
      status: 0,
      stdout: '',
      stderr: '',
    });
  });
});
