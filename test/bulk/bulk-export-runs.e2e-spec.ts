import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { CRASH_POINTS, CrashPoints, leaseKey, RedisService } from '@app/shared';
import { eventually } from '../harness/test-app';
import { exportRunLeaseName } from '../../libs/bulk/src/keys';
import { BULK_EXPORT_EXPIRY } from '../../libs/bulk/src/worker/bulk.job-definitions';
import { runJob } from '../jobs/job-helpers';
import { LEASE_MS, type Row, useExportSuite } from './export-helpers';

/** A local receiver of export callbacks: what it was POSTed, in order; answers 204. */
async function startCallbackReceiver() {
  const received: { path: string; type: string | undefined; body: unknown }[] = [];
  const server: Server = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    req.on('end', () => {
      received.push({
        path: req.url ?? '',
        type: req.headers['content-type'],
        body: JSON.parse(text),
      });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    received,
    port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * The runs of bulk exports (docs/bulk-export.md), against the real engine, Redis and one
 * worker: the callback (delivered, and one that fails), rows under concurrent writes, failed
 * runs retried, and a worker dying at a crash point.
 */
describe('Bulk export: callbacks, concurrent writes and a worker dying', () => {
  const suite = useExportSuite();
  const { v4, status, rows, exported, complete, applied, newProfiles } = suite;

  it('POSTs the status to the CallbackURL when Complete; a callback that fails does not fail the export', async () => {
    const receiver = await startCallbackReceiver();
    const { received, port } = receiver;
    try {
      const { since } = await newProfiles(1);
      const token = await exported({
        LastDateTime: since,
        CallbackURL: `http://127.0.0.1:${port}/done?x=1`,
      });
      const done = await complete(token);
      await eventually(async () => (received.length ? true : undefined));
      expect(received).toEqual([
        {
          path: '/done?x=1',
          type: 'application/json',
          body: { AccessToken: token, Status: 'Complete', RowCount: 1, ByteCount: done.ByteCount },
        },
      ]);
      await eventually(async () =>
        (await status(token)).body.CallbackStatus === 'Delivered' ? true : undefined,
      );
    } finally {
      await receiver.close();
    }
    // Nobody listens there now: three attempts, then given up; the export is Complete.
    const token = await exported({
      LastDateTime: new Date().toISOString(),
      CallbackURL: `http://127.0.0.1:${port}/gone`,
    });
    await complete(token);
    const failed = await eventually(async () => {
      const body = (await status(token)).body;
      return body.CallbackStatus === 'Failed' ? body : undefined;
    });
    expect(failed).toMatchObject({ Status: 'Complete', RowCount: 0 });
  }, 40_000);

  it('under concurrent writes every row is one applied state of its profile (two fields written together agree)', async () => {
    const { since, ids } = await newProfiles(6, () => ({
      CustomerName: { FirstName: 'v0', LastName: 'v0' },
    }));
    let writing = true;
    let version = 0;
    const writer = (async () => {
      while (writing) {
        version++;
        const id = ids[version % ids.length];
        await request(suite.app.http)
          .post(`${v4()}/Profile/${id}`)
          .set('Authorization', suite.auth)
          .send({ CustomerName: { FirstName: `v${version}`, LastName: `v${version}` } })
          .expect(202);
      }
    })();
    let exports = 0;
    try {
      // Several exports while the writes go on (each of 3 pages, so of several runs).
      for (; exports < 3; exports++) {
        const token = await exported({ LastDateTime: since });
        await complete(token);
        const got = (await rows(token).expect(200)).body.UserProfilePreferences as {
          ProfileId: number;
          CustomerName: { FirstName: string; LastName: string };
        }[];
        expect(got.map((row) => row.ProfileId)).toEqual(ids);
        for (const row of got) expect(row.CustomerName.LastName).toBe(row.CustomerName.FirstName);
      }
    } finally {
      writing = false;
      await writer;
    }
    expect(version).toBeGreaterThan(exports);
    // Every write applied before the next test counts what was saved since its start.
    for (const id of ids) await applied(id);
  }, 60_000);

  it('a run that fails is retried from its saved progress (every row once); five failures in a row: Failed, and the callback says so', async () => {
    const crashPoints = suite.app.workers[0].get(CrashPoints, { strict: false });
    // Two failed runs (Error), each after its page was written: the retries go on.
    const { since, ids } = await newProfiles(5);
    crashPoints.failNext(CRASH_POINTS.bulkExportAfterPage, 2);
    const recovered = await exported({ LastDateTime: since });
    expect((await complete(recovered)).RowCount).toBe(5);
    const got = (await rows(recovered).expect(200)).body.UserProfilePreferences as Row[];
    expect(got.map((row) => row.ProfileId)).toEqual(ids);

    const receiver = await startCallbackReceiver();
    const { port } = receiver;
    const received = () => receiver.received.map(({ body }) => body);
    try {
      crashPoints.failNext(CRASH_POINTS.bulkExportAfterPage, 5);
      const token = await exported({
        LastDateTime: since,
        CallbackURL: `http://127.0.0.1:${port}/failed`,
      });
      const failed = await eventually(async () => {
        const body = (await status(token)).body;
        return body.Status === 'Failed' ? body : undefined;
      });
      expect(failed).toMatchObject({ AccessToken: token, RowCount: 0 });
      await eventually(async () => (received().length ? true : undefined));
      expect(received()).toEqual([
        { AccessToken: token, Status: 'Failed', RowCount: 0, ByteCount: 0 },
      ]);
      const refused = await rows(token).expect(409);
      expect(refused.body.Message).toContain('Failed');
    } finally {
      crashPoints.disarmAll();
      await receiver.close();
    }
  }, 60_000);

  it('a worker dying between the end of an export and the queueing of its callback: the sweep queues it once its attempts would be over', async () => {
    const receiver = await startCallbackReceiver();
    const { port } = receiver;
    const received = () => receiver.received.map(({ body }) => body);
    const [worker] = suite.app.workers;
    try {
      const reached = worker
        .get(CrashPoints, { strict: false })
        .arm(CRASH_POINTS.bulkExportAfterEnd);
      const { since } = await newProfiles(1);
      const token = await exported({
        LastDateTime: since,
        CallbackURL: `http://127.0.0.1:${port}/late`,
      });
      await reached;
      await suite.app.killWorker(worker);
      await suite.app.startWorker();
      const ended = (await status(token).expect(200)).body;
      expect(ended).toMatchObject({ Status: 'Complete', CallbackStatus: 'Pending' });
      // While its attempts could still be running, the sweep queues nothing.
      expect((await runJob(suite.app, BULK_EXPORT_EXPIRY)).counts!.callbacks).toBe(0);
      suite.app.advance(60_000);
      try {
        const run = await runJob(suite.app, BULK_EXPORT_EXPIRY);
        expect(run.counts!.callbacks).toBeGreaterThanOrEqual(1);
        await eventually(async () =>
          (await status(token)).body.CallbackStatus === 'Delivered' ? true : undefined,
        );
        expect(received()).toEqual([
          { AccessToken: token, Status: 'Complete', RowCount: 1, ByteCount: ended.ByteCount },
        ]);
      } finally {
        suite.app.advance(-60_000);
      }
    } finally {
      await receiver.close();
    }
  }, 60_000);

  it('a worker dying between a page and its save: the next run writes that page again; every profile once', async () => {
    const { since, ids } = await newProfiles(5);
    const [worker] = suite.app.workers;
    const reached = worker
      .get(CrashPoints, { strict: false })
      .arm(CRASH_POINTS.bulkExportAfterPage);
    const token = await exported({ LastDateTime: since });
    // Page 1 is written; the worker dies before the export saved it.
    await reached;
    await suite.app.killWorker(worker);
    expect((await status(token).expect(200)).body).toMatchObject({
      Status: 'Processing',
      RowCount: 0,
    });
    // Its run lease lapses; a new worker; a status read after a lease without progress
    // queues the run again.
    await suite.app.api
      .get(RedisService)
      .client.del(
        leaseKey(suite.app.settings.queuePrefix, exportRunLeaseName(suite.tenant.clientId, token)),
      );
    await suite.app.startWorker();
    suite.app.advance(LEASE_MS);
    try {
      await status(token).expect(200);
      const done = await complete(token);
      expect(done.RowCount).toBe(5);
      const got = (await rows(token).expect(200)).body.UserProfilePreferences as Row[];
      expect(got.map((row) => row.ProfileId)).toEqual(ids);
    } finally {
      suite.app.advance(-LEASE_MS);
    }
  }, 60_000);
});
