import { type DynamicModule, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { getConnectionToken } from '@nestjs/mongoose';
import type { INestApplicationContext } from '@nestjs/common';
import { randomBytes, scryptSync } from 'node:crypto';
import type { Connection } from 'mongoose';
import request from 'supertest';
import { AuthCoreModule, TenantAdminService, TokenService } from '@app/auth';
import { DatabaseModule, RedisModule, RedisService, Settings, SettingsModule } from '@app/shared';
import { recordEngineCommands } from './harness/engine-commands';
import { recordRedisCommands } from './harness/redis-commands';
import { createTestTenant, fetchBearer, requestToken, type TestTenant } from './harness/session';
import { eventually, startTestApp, type TestApp } from './harness/test-app';

/** An admin process of its own (as the admin CLI is): its own caches, the same stores. */
@Module({})
class AdminProcessModule {
  static register(settings: Settings): DynamicModule {
    return {
      module: AdminProcessModule,
      imports: [SettingsModule.forRoot(settings), DatabaseModule, RedisModule, AuthCoreModule],
    };
  }
}

const AUTH_COLLECTIONS = ['clients', 'users', 'oauth_clients', 'revoked_tokens'];

/**
 * Authentication reads the tenant, its users and revocations from per-process caches that
 * are checked against auth stamps in Redis: a warm request sends
 * no engine command, and a change made by any process applies from the next request. A
 * process subscribed to the stamps' announcements reuses the stamps it read (this app: for a
 * minute, so a stamp that was wrongly reused shows). The token endpoint verifies secrets with a fast keyed hash (old scrypt hashes are rewritten
 * on use) and throttles repeated failures per OAuth client id.
 */
describe('Authentication without the engine, and the token endpoint', () => {
  let app: TestApp;
  let other: INestApplicationContext;
  let admin: TenantAdminService;
  let tenant: TestTenant;
  const consentStatus = (clientId: string, authorization: string) =>
    request(app.http)
      .get(`/Profiles/v4/${clientId}/ConsentStatus`)
      .set('Authorization', authorization);

  beforeAll(async () => {
    app = await startTestApp({
      workers: 0,
      env: {
        MONITOR_ENGINE_COMMANDS: 'true',
        TOKEN_FAILURE_LIMIT: '3',
        TOKEN_FAILURE_WINDOW_SECONDS: '2',
        AUTH_STAMP_REUSE_MS: '60000',
      },
    });
    other = await NestFactory.createApplicationContext(AdminProcessModule.register(app.settings), {
      logger: false,
    });
    admin = other.get(TenantAdminService);
    tenant = await createTestTenant(app);
  });
  afterAll(async () => {
    await other?.close();
    await app?.close();
  });

  it('a warm request, through either scheme, sends no command to the auth collections', async () => {
    const bearer = await tenant.bearer();
    await consentStatus(tenant.clientId, bearer).expect(200);
    await consentStatus(tenant.clientId, tenant.signed()).expect(200);
    const commands = await recordEngineCommands([app.api], async () => {
      await consentStatus(tenant.clientId, bearer).expect(200);
      await consentStatus(tenant.clientId, tenant.signed()).expect(200);
    });
    expect(commands.filter((c) => AUTH_COLLECTIONS.includes(c.collection))).toEqual([]);
  });

  it('changes made by another process apply from the next request', async () => {
    const { clientId } = tenant;
    await admin.addUser({ clientId, userId: 'temp' });
    const token = await fetchBearer(app, tenant, 'temp');
    await consentStatus(clientId, token).expect(200);
    await admin.setUserActive(clientId, 'temp', false);
    await consentStatus(clientId, token).expect(401);
    await admin.setUserActive(clientId, 'temp', true);
    await consentStatus(clientId, token).expect(200);

    await admin.defineUserGroup(clientId, 'NoConfig', [{ area: 'profiles', access: 'read' }]);
    await admin.setUserGroup(clientId, 'temp', 'NoConfig');
    await consentStatus(clientId, token).expect(403);

    await admin.revokeToken({ token: token.slice('Bearer '.length) });
    await consentStatus(clientId, token).expect(401);

    const signed = tenant.signed();
    await consentStatus(clientId, signed).expect(200);
    const { apiHashKey } = await admin.rotateApiHashKey(clientId);
    await consentStatus(clientId, signed).expect(401);
    tenant.apiHashKey = apiHashKey;
    await consentStatus(clientId, tenant.signed()).expect(200);
  });

  it('a signed header verified once is still refused once its window has passed, or its user is deactivated', async () => {
    const { clientId } = tenant;
    await admin.addUser({ clientId, userId: 'signer' });
    const signed = tenant.signed({ userId: 'signer' });
    await consentStatus(clientId, signed).expect(200);
    await consentStatus(clientId, signed).expect(200); // the remembered verification
    await admin.setUserActive(clientId, 'signer', false);
    await consentStatus(clientId, signed).expect(401);
    await admin.setUserActive(clientId, 'signer', true);
    await consentStatus(clientId, signed).expect(200);

    await admin.setClientSettings(clientId, { customAuthWindowSeconds: 1 });
    try {
      await new Promise((resolve) => setTimeout(resolve, 2100));
      const late = await consentStatus(clientId, signed).expect(401);
      expect(JSON.stringify(late.body)).toMatch(/expired/);
    } finally {
      await admin.setClientSettings(clientId, { customAuthWindowSeconds: 900 });
    }
  });

  it('a warm request, through either scheme, reads no auth stamp from Redis: announcements stand in for it', async () => {
    const bearer = await tenant.bearer();
    await consentStatus(tenant.clientId, bearer).expect(200);
    await consentStatus(tenant.clientId, tenant.signed()).expect(200);
    const prefix = app.api.get(RedisService).pinned('auth');
    const commands = await recordRedisCommands(app.settings.redisUrl, async () => {
      await consentStatus(tenant.clientId, bearer).expect(200);
      await consentStatus(tenant.clientId, tenant.signed()).expect(200);
    });
    const stampReads = commands.filter((args) =>
      args.some((arg) => arg.startsWith(`${prefix}:stamp:`)),
    );
    expect(stampReads).toEqual([]);
  });

  it('a lost auth stamp makes every process read the engine again, once the subscription is lost with it', async () => {
    const { clientId } = tenant;
    const bearer = await tenant.bearer();
    await consentStatus(clientId, bearer).expect(200);
    // Redis loses the stamps (a restart without its data ends every connection) while the
    // engine changes without an announcement.
    const redis = app.api.get(RedisService);
    const channel = redis.key('auth', 'stamp-changes');
    const subscribers = async () =>
      Number(((await redis.client.pubsub('NUMSUB', channel)) as [string, number])[1]);
    expect(await subscribers()).toBe(1);
    // Ends this app's subscription only (other suites share the Redis server).
    const loseSubscription = async () => {
      const list = (await redis.client.client('LIST')) as string;
      const id = list
        .split('\n')
        .find((line) => line.includes(` name=${channel} `))
        ?.match(/^id=(\d+)/)?.[1];
      expect(id).toBeDefined();
      await redis.client.client('KILL', 'ID', id!);
      await eventually(async () => ((await subscribers()) === 1 ? true : undefined));
    };
    await redis.client.del(`${redis.pinned('auth')}:stamp:${clientId}`);
    const db = app.api.get<Connection>(getConnectionToken()).db!;
    const users = db.collection<{ _id: string; isActive: boolean }>('users');
    await users.updateOne({ _id: `${clientId}|${tenant.userId}` }, { $set: { isActive: false } });
    // Reused stamps still serve the cached user until the subscription is lost.
    await consentStatus(clientId, bearer).expect(200);
    await loseSubscription();
    await consentStatus(clientId, bearer).expect(401);
    await users.updateOne({ _id: `${clientId}|${tenant.userId}` }, { $set: { isActive: true } });
    await redis.client.del(`${redis.pinned('auth')}:stamp:${clientId}`);
    await loseSubscription();
    await consentStatus(clientId, bearer).expect(200);
  });

  it('throttles a client id after repeated failed secrets, and only that one', async () => {
    const victim = await createTestTenant(app);
    const bystander = await createTestTenant(app);
    const attempt = (who: TestTenant, secret: string) =>
      requestToken(app, {
        grant_type: 'client_credentials',
        scope: `${who.clientId}/${who.userId}`,
        client_id: who.oauthClientId,
        client_secret: secret,
      });
    for (let n = 0; n < 3; n++) expect((await attempt(victim, 'wrong')).status).toBe(400);
    const blocked = await attempt(victim, victim.oauthClientSecret);
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(blocked.body.error).toBe('invalid_client');
    expect(blocked.body.Message).toMatch(/too many failed authentications/);
    expect((await attempt(bystander, bystander.oauthClientSecret)).status).toBe(200);
    // After the window, the right secret works again.
    await eventually(async () => {
      const res = await attempt(victim, victim.oauthClientSecret);
      return res.status === 200 ? res : undefined;
    });
  });

  it('a warm token request sends no Redis command; a failure counted by another process throttles here too', async () => {
    const victim = await createTestTenant(app);
    const form = (secret: string) => ({
      grant_type: 'client_credentials',
      scope: `${victim.clientId}/${victim.userId}`,
      client_id: victim.oauthClientId,
      client_secret: secret,
    });
    const prefix = app.settings.queuePrefix;
    // Warm once the record is cached and its stamps were read while subscribed.
    await eventually(async () => {
      const commands = await recordRedisCommands(app.settings.redisUrl, async () => {
        expect((await requestToken(app, form(victim.oauthClientSecret))).status).toBe(200);
      });
      const ours = commands.filter((args) => args.some((arg) => arg.startsWith(`${prefix}:`)));
      return ours.length === 0 ? true : undefined;
    }, 5000);

    // Three failures counted by another api process: its announcements make this one read
    // the count, so the right secret is refused here as well.
    const elsewhere = other.get(TokenService);
    for (let n = 0; n < 3; n++) {
      await expect(elsewhere.issue(form('wrong'), undefined)).rejects.toMatchObject({
        status: 400,
      });
    }
    const refused = await eventually(async () => {
      const res = await requestToken(app, form(victim.oauthClientSecret));
      return res.status === 429 ? res : undefined;
    }, 1500);
    expect(refused.body.error).toBe('invalid_client');
  });

  it('a secret stored as a scrypt hash by an earlier version still works, and is stored again fast', async () => {
    const legacy = await createTestTenant(app);
    const salt = randomBytes(16);
    const hash = scryptSync(legacy.oauthClientSecret, salt, 32, { N: 16384, r: 8, p: 1 });
    const scryptHash = ['scrypt', 16384, 8, 1, salt.toString('base64'), hash.toString('base64')];
    const db = app.api.get<Connection>(getConnectionToken()).db!;
    const oauthClients = db.collection<{ _id: string; secretHash: string }>('oauth_clients');
    await oauthClients.updateOne(
      { _id: legacy.oauthClientId },
      { $set: { secretHash: scryptHash.join('$') } },
    );
    await legacy.bearer();
    const stored = await oauthClients.findOne({ _id: legacy.oauthClientId });
    expect(stored?.secretHash).toMatch(/^hmac-sha256\$/);
    expect((await fetchBearer(app, legacy, legacy.userId)).startsWith('Bearer ')).toBe(true);
  });
});
