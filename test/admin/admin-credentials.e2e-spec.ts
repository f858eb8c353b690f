import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { getModelToken } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import request from 'supertest';
import { requestToken, uniqueClientId } from '../harness/session';
import { startTestApp, type TestApp } from '../harness/test-app';

const ROOT = join(__dirname, '..', '..');

interface CommandRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

interface Credentials {
  clientId: string;
  oauthClientId: string;
  oauthClientSecret: string;
}

/**
 * The admin CLI as an operator runs it (`npm run admin`, scripts/admin.js, which builds when
 * the sources changed), with MONGODB_URI, REDIS_URL and JWT_SECRET set to this app's: what
 * it prints and its exit status.
 */
jest.setTimeout(180_000);

describe('admin CLI: OAuth credentials shown again and rotated', () => {
  let app: TestApp;

  function admin(...args: string[]): Promise<CommandRun> {
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, ['scripts/admin.js', ...args], {
        cwd: ROOT,
        env: { PATH: process.env.PATH, ...app.settings.env },
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.on('error', reject);
      child.on('close', (status) => resolve({ status, stdout, stderr }));
    });
  }

  /** A command that must succeed: its one JSON object. */
  async function adminJson<T>(...args: string[]): Promise<T> {
    const run = await admin(...args);
    expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
    return JSON.parse(run.stdout) as T;
  }

  const token = (scope: string, oauthClientId: string, secret: string) =>
    requestToken(app, {
      grant_type: 'client_credentials',
      scope,
      client_id: oauthClientId,
      client_secret: secret,
    });

  beforeAll(async () => {
    // Built once here (a no-op when up to date) rather than inside the first command.
    const build = spawnSync(process.execPath, ['scripts/build-if-stale.js'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    expect(build.status).toBe(0);
    app = await startTestApp({ workers: 0 });
  }, 900_000);

  afterAll(async () => {
    await app?.close();
  });

  it('show-client gives the OAuth client id again; rotate-secret --client-id refuses the old secret at once', async () => {
    const clientId = uniqueClientId('adm');
    const scope = `${clientId}/alice`;
    const created = await adminJson<Credentials>(
      'create-client',
      '--client-id',
      clientId,
      '--user-id',
      'alice',
    );

    expect(await adminJson('show-client', '--client-id', clientId)).toEqual({
      clientId,
      oauthClientIds: [created.oauthClientId],
    });

    const before = await token(scope, created.oauthClientId, created.oauthClientSecret);
    expect(before.status).toBe(200);
    const issued = `Bearer ${before.body.access_token as string}`;

    const rotated = await adminJson<Credentials>('rotate-secret', '--client-id', clientId);
    expect(rotated.clientId).toBe(clientId);
    expect(rotated.oauthClientId).toBe(created.oauthClientId);
    expect(rotated.oauthClientSecret).toMatch(/^[A-Za-z0-9]{64}$/);
    expect(rotated.oauthClientSecret).not.toBe(created.oauthClientSecret);

    const old = await token(scope, created.oauthClientId, created.oauthClientSecret);
    expect(old.status).toBe(400);
    expect(old.body.error).toBe('invalid_client');
    expect((await token(scope, rotated.oauthClientId, rotated.oauthClientSecret)).status).toBe(200);
    // Decision (docs/api.md, rotate-secret): a token issued before stays valid until it expires.
    await request(app.http)
      .get(`/Profiles/v4/${clientId}/ConsentStatus`)
      .set('Authorization', issued)
      .expect(200);
  });

  it('with several OAuth clients, show-client lists each and rotate-secret asks which one', async () => {
    const clientId = uniqueClientId('adm');
    const created = await adminJson<Credentials>(
      'create-client',
      '--client-id',
      clientId,
      '--user-id',
      'alice',
    );
    const added = await adminJson<Credentials>('add-oauth-client', '--client-id', clientId);
    expect(await adminJson('show-client', '--client-id', clientId)).toEqual({
      clientId,
      oauthClientIds: [created.oauthClientId, added.oauthClientId],
    });

    const ambiguous = await admin('rotate-secret', '--client-id', clientId);
    expect(ambiguous.status).toBe(1);
    expect(ambiguous.stdout).toBe('');
    expect(ambiguous.stderr.trim()).toBe(
      `Client ${clientId} has 2 OAuth clients (${created.oauthClientId}, ${added.oauthClientId}); name the one to rotate with --oauth-client-id`,
    );
    // Nothing rotated: both secrets still work.
    const scope = `${clientId}/alice`;
    expect((await token(scope, created.oauthClientId, created.oauthClientSecret)).status).toBe(200);
    expect((await token(scope, added.oauthClientId, added.oauthClientSecret)).status).toBe(200);

    const rotated = await adminJson<Credentials>(
      'rotate-secret',
      '--oauth-client-id',
      added.oauthClientId,
    );
    expect((await token(scope, added.oauthClientId, added.oauthClientSecret)).status).toBe(400);
    expect((await token(scope, added.oauthClientId, rotated.oauthClientSecret)).status).toBe(200);
    expect((await token(scope, created.oauthClientId, created.oauthClientSecret)).status).toBe(200);
  });

  it('finds the OAuth clients of a client stored before the list existed, once', async () => {
    const clientId = uniqueClientId('adm');
    const created = await adminJson<Credentials>(
      'create-client',
      '--client-id',
      clientId,
      '--user-id',
      'alice',
    );
    // A client record as earlier versions stored it: no list of OAuth client ids.
    const clients = app.api.get<Model<{ _id: string; oauthClientIds?: string[] }>>(
      getModelToken('ClientAccount'),
      { strict: false },
    );
    await clients.updateOne({ _id: clientId }, { $unset: { oauthClientIds: 1 } }).exec();
    expect((await clients.findById(clientId).lean().exec())?.oauthClientIds).toBeUndefined();

    expect(await adminJson('show-client', '--client-id', clientId)).toEqual({
      clientId,
      oauthClientIds: [created.oauthClientId],
    });
    expect((await clients.findById(clientId).lean().exec())?.oauthClientIds).toEqual([
      created.oauthClientId,
    ]);
  });

  it('an unknown client: status 1 and a message naming it', async () => {
    const run = await admin('show-client', '--client-id', 'no-such-client');
    expect(run).toEqual({
      status: 1,
      stdout: '',
      stderr: 'Client no-such-client was not found\n',
    });
  });

  it.each([['-1'], ['abc']])(
    'set-client --writes-per-second %s: one line naming the flag, value and bound, status 2, nothing changed',
    async (value) => {
      const clientId = uniqueClientId('adm');
      await adminJson('create-client', '--client-id', clientId, '--user-id', 'alice');
      const run = await admin('set-client', '--client-id', clientId, '--writes-per-second', value);
      expect(run).toEqual({
        status: 2,
        stdout: '',
        stderr: `Invalid value: --writes-per-second (value "${value}"): must be a whole number from 0 to 2147483647 (0: unlimited), or default\n`,
      });
      const shown = await adminJson<{ quotas: Record<string, unknown> }>(
        'set-client',
        '--client-id',
        clientId,
      );
      expect(shown.quotas.writesPerSecond).toBe('default');
    },
  );

  it('--help lists every permission area, merge included, and says where it finds the service', async () => {
    const run = await admin('--help');
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(
      /^Permission areas .*: profiles, configuration, preferences, consents, history, events, reports, merge /m,
    );
    expect(run.stdout).toContain('.data/runtime.json');
    expect(run.stdout).not.toContain('Reads MONGODB_URI, REDIS_URL and JWT_SECRET');
    expect(run.stdout).toMatch(/^ {2}show-client --client-id/m);
  });
});
