import request from 'supertest';
import { RedisService } from '@app/shared';
import { eventually } from '../harness/test-app';
import { exportPageKey } from '../../libs/bulk/src/keys';
import { BULK_EXPORT_EXPIRY } from '../../libs/bulk/src/worker/bulk.job-definitions';
import { runJob } from '../jobs/job-helpers';
import { HOUR, useExportSuite } from './export-helpers';

/** The Message of an error answer (the stream's parser keeps it as text). */
const messageOf = (body: unknown) =>
  (typeof body === 'string'
    ? (JSON.parse(body) as { Message: string })
    : (body as { Message: string })
  ).Message;

/**
 * Bulk exports that expire (docs/bulk-export.md), against the real engine, Redis and one
 * worker, the clock moved: an expired export's answers, the expiry sweep (rows, then a week
 * later the record), and an expiry schedule Redis lost.
 */
describe('Bulk export: expiry', () => {
  const suite = useExportSuite();
  const { base, status, rows, stream, commit, exported, complete, newProfiles, db, storedPage } =
    suite;

  it('an expired export: Status Expired and its rows removed; Rows, Stream and Commit answer 401 without a challenge', async () => {
    const { since } = await newProfiles(1);
    const token = await exported({ LastDateTime: since });
    await complete(token);
    suite.app.advance(25 * HOUR);
    try {
      for (const res of [await rows(token), await stream(token), await commit(token)]) {
        expect(res.status).toBe(401);
        expect(messageOf(res.body)).toMatch(new RegExp(`^AccessToken ${token} expired at `));
        expect(res.headers['www-authenticate']).toBeUndefined();
      }
      expect((await status(token).expect(200)).body.Status).toBe('Expired');
      await eventually(async () =>
        (await db()
          .collection('bulk_export_pages')
          .findOne({ _id: exportPageKey(suite.tenant.clientId, token, 1) } as object)) === null
          ? true
          : undefined,
      );
    } finally {
      suite.app.advance(-25 * HOUR);
    }
  });

  it('an export nobody touches after its Expires: the expiry sweep expires it, removes its rows, and a week later its record', async () => {
    const { since } = await newProfiles(1);
    const token = await exported({ LastDateTime: since });
    await complete(token);
    const page = () => storedPage(token);
    const stored = () =>
      db()
        .collection('bulk_exports')
        .findOne({ _id: `${suite.tenant.clientId}|${token}` } as object);
    expect(await page()).not.toBeNull();
    // Before Expires the sweep leaves it as it is.
    await runJob(suite.app, BULK_EXPORT_EXPIRY);
    expect((await stored())!.status).toBe('Complete');
    suite.app.advance(25 * HOUR);
    try {
      const run = await runJob(suite.app, BULK_EXPORT_EXPIRY);
      // This one, and those of the tests before that nobody read again.
      expect(run.counts!.expired).toBeGreaterThanOrEqual(1);
      // Read in the engine, not through a route (a request would expire it too).
      expect((await stored())!.status).toBe('Expired');
      await eventually(async () => ((await page()) === null ? true : undefined));
      await eventually(async () => ((await stored())?.purgedAt ? true : undefined));
      // The record stays a week (its status says Expired), then goes (404).
      const status = await request(suite.app.http)
        .get(`${base()}/${token}`)
        .set('Authorization', suite.auth);
      expect({ code: status.status, state: status.body.Status }).toEqual({
        code: 200,
        state: 'Expired',
      });
      await runJob(suite.app, BULK_EXPORT_EXPIRY);
      expect(await stored()).not.toBeNull();
      suite.app.advance(8 * 24 * HOUR);
      try {
        const run = await runJob(suite.app, BULK_EXPORT_EXPIRY);
        expect(run.counts!.removed).toBeGreaterThanOrEqual(1);
        expect(await stored()).toBeNull();
        await request(suite.app.http)
          .get(`${base()}/${token}`)
          .set('Authorization', suite.auth)
          .expect(404);
      } finally {
        suite.app.advance(-8 * 24 * HOUR);
      }
    } finally {
      suite.app.advance(-25 * HOUR);
    }
  });

  it('an expiry schedule Redis lost is rebuilt from the exports: an export past its Expires still expires and its rows go', async () => {
    const { since } = await newProfiles(1);
    const token = await exported({ LastDateTime: since });
    await complete(token);
    const page = () => storedPage(token);
    const redis = suite.app.api.get(RedisService);
    await redis.client.del(
      redis.key('bulk-export-expiry'),
      redis.key('bulk-export-expiry', 'built'),
    );
    suite.app.advance(25 * HOUR);
    try {
      const run = await runJob(suite.app, BULK_EXPORT_EXPIRY);
      expect(run.counts!.rescheduled).toBeGreaterThanOrEqual(1);
      expect(await redis.client.exists(redis.key('bulk-export-expiry', 'built'))).toBe(1);
      const stored = await db()
        .collection('bulk_exports')
        .findOne({ _id: `${suite.tenant.clientId}|${token}` } as object);
      expect(stored!.status).toBe('Expired');
      await eventually(async () => ((await page()) === null ? true : undefined));
      expect((await runJob(suite.app, BULK_EXPORT_EXPIRY)).counts!.rescheduled).toBe(0);
    } finally {
      suite.app.advance(-25 * HOUR);
    }
  });
});
