import { type DynamicModule, type INestApplicationContext, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import request from 'supertest';
import { ConfigBookkeeping } from '@app/config/common/config-bookkeeping.repository';
import { ConfigurationCoreModule } from '@app/config/configuration-core.module';
import { DoNotContactPersistenceModule } from '@app/consents';
import { DncRepository } from '@app/consents/do-not-contact/dnc.repository';
import { dncKey } from '@app/consents/do-not-contact/domain/dnc-value';
import { DatabaseModule, RedisModule, RedisService, Settings, SettingsModule } from '@app/shared';
import { configureTestTenant, testPreference, type TestPrograms } from '../harness/configuration';
import { recordRedisCommands } from '../harness/redis-commands';
import { createTestTenant, type TestTenant } from '../harness/session';
import { eventually, startTestApp, type TestApp } from '../harness/test-app';
import { profileClient } from '../jobs/job-helpers';

/** Another api process (as a second replica is): its own caches, the same stores. */
@Module({})
class OtherProcessModule {
  static register(settings: Settings): DynamicModule {
    return {
      module: OtherProcessModule,
      imports: [
        SettingsModule.forRoot(settings),
        DatabaseModule,
        RedisModule,
        ConfigurationCoreModule,
        DoNotContactPersistenceModule,
      ],
    };
  }
}

/*
 * The contact decision reuses the configuration and do-not-contact stamps it read while the
 * process is subscribed to their change announcements (ReusedStamps, docs/decisions.md
 * "Cost"). This app reuses them for a minute, so a stamp wrongly reused shows: a warm
 * decision reads neither stamp from Redis, and a change made by another process reaches the
 * next decision.
 */
describe('Contact decisions reuse the stamps they read until a change is announced', () => {
  let app: TestApp;
  let other: INestApplicationContext;
  let tenant: TestTenant;
  let programs: TestPrograms;
  let auth: string;
  let profileId: number;

  const decide = async () => {
    const res = await request(app.http)
      .get(`/Profiles/v4/${tenant.clientId}/ContactDecision`)
      .query({ profileId, channelId: 'Email', programId: programs.newsletter.email.ProgramId })
      .set('Authorization', auth)
      .expect(200);
    return res.body as { Allowed: boolean; Reasons: { Code: string }[] };
  };
  /** The stamp keys (configuration, do-not-contact) a decision reads from Redis. */
  const stampReads = async () => {
    const commands = await recordRedisCommands(app.settings.redisUrl, async () => {
      await decide();
    });
    const cfg = app.api.get(RedisService).key('cfg', 'stamp', tenant.clientId);
    const dnc = app.api.get(RedisService).key('dnc', 'stamp', tenant.clientId);
    return commands
      .filter(([name, key]) => name.toLowerCase() === 'get' && (key === cfg || key === dnc))
      .map(([, key]) => (key === cfg ? 'cfg' : 'dnc'))
      .sort();
  };

  beforeAll(async () => {
    app = await startTestApp({ env: { READ_STAMP_REUSE_MS: '60000' } });
    other = await NestFactory.createApplicationContext(OtherProcessModule.register(app.settings), {
      logger: false,
    });
    tenant = await createTestTenant(app);
    ({ programs } = await configureTestTenant(app, tenant));
    auth = await tenant.bearer();
    const profiles = profileClient(app, tenant);
    profileId = await profiles.create({
      Emails: [
        {
          EmailAddress: 'reused@example.com',
          EmailPreferences: [testPreference(programs.newsletter.email)],
        },
      ],
    });
    await profiles.complete(profileId);
  });
  afterAll(async () => {
    await other?.close();
    await app?.close();
  });

  it('a warm decision reads neither stamp from Redis', async () => {
    // Cold: the first decision subscribes, and reads both stamps until the subscription
    // is confirmed (a stamp read before it is not kept).
    expect(await stampReads()).toEqual(['cfg', 'dnc']);
    await eventually(async () => ((await stampReads()).length === 0 ? true : undefined), 10000);
    expect((await decide()).Allowed).toBe(true);
    expect(await stampReads()).toEqual([]);
  });

  it("another process's configuration change makes the next decision read the configuration stamp again", async () => {
    await decide();
    expect(await stampReads()).toEqual([]);
    await other.get(ConfigBookkeeping).touch(tenant.clientId);
    expect(await stampReads()).toEqual(['cfg']);
    expect(await stampReads()).toEqual([]);
  });

  it('a value listed by another process is refused from the next decision', async () => {
    const listId = (
      await request(app.http)
        .post(`/Profiles/v4/${tenant.clientId}/DoNotContactLists`)
        .set('Authorization', auth)
        .send({ Name: 'Elsewhere', ListType: 'Email' })
        .expect(201)
    ).body.ListId as number;
    expect((await decide()).Allowed).toBe(true);
    expect(await stampReads()).toEqual([]);
    await other.get(DncRepository).list({
      clientId: tenant.clientId,
      listId,
      ListType: 'Email',
      Value: 'reused@example.com',
      key: dncKey('Email', 'reused@example.com')!,
      changedBy: 'another process',
      at: new Date(),
    });
    const answer = await decide();
    expect(answer.Allowed).toBe(false);
    expect(answer.Reasons.map((reason) => reason.Code)).toContain('DoNotContact');
  });
});
