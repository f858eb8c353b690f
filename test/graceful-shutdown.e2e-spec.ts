import { EventEmitter } from 'node:events';
import request from 'supertest';
import { HealthChecks, onTermination } from '@app/shared';
import { closeApiApp } from '../apps/api/src/bootstrap';
import { closeWorkerApp } from '../apps/worker/src/bootstrap';
import { ProfileRepository } from '../libs/profiles/src/persistence/profile.repository';
import { configureTestTenant } from './harness/configuration';
import { createTestTenant, type TestTenant } from './harness/session';
import { eventually, startTestApp, type TestApp } from './harness/test-app';

/** A SIGTERM as main.ts wires it, from an emitter of the test's own; resolves on exit. */
function terminate(stop: () => Promise<void>): Promise<number> {
  const signals = new EventEmitter();
  const exited = new Promise<number>((resolve) => {
    onTermination('test', stop, { signals, exit: resolve });
  });
  signals.emit('SIGTERM');
  return exited;
}

describe('graceful shutdown (SIGTERM)', () => {
  let app: TestApp;
  let tenant: TestTenant;
  let auth: string;
  const base = () => `/Profiles/v4/${tenant.clientId}/Profile`;

  beforeAll(async () => {
    // DELETE answers 202 after this long when the worker has not applied it.
    app = await startTestApp({ workers: 1, env: { SYNC_WRITE_TIMEOUT_MS: '1500' } });
    tenant = await createTestTenant(app);
    await configureTestTenant(app, tenant);
    auth = await tenant.bearer();
  });
  afterAll(() => app?.close());

  /** Whether a write accepted with 202 was applied (the worker's view of the engine). */
  async function applied(profileIds: number[]): Promise<boolean> {
    const profiles = app.workers[0].get(ProfileRepository, { strict: false });
    for (const id of profileIds) {
      const profile = await profiles.findOne(tenant.clientId, id);
      if (profile?.state !== 'active') return false;
    }
    return true;
  }

  it('a worker stopping under load finishes its running jobs, exits 0, and loses no write', async () => {
    const accepted: number[] = [];
    for (let i = 0; i < 20; i++) {
      const response = await request(app.http)
        .post(base())
        .set('Authorization', auth)
        .send({ CustomerType: 'Customer' });
      expect(response.status).toBe(202);
      accepted.push(response.body.ProfileId as number);
    }
    const worker = app.workers[0];
    app.workers.splice(0, 1);
    const health = worker.get(HealthChecks, { strict: false });
    let readyWhileStopping: unknown;
    expect(
      await terminate(async () => {
        const closing = closeWorkerApp(worker, app.settings);
        // Not ready from the signal on, while its running jobs finish.
        readyWhileStopping = await health.ready();
        await closing;
      }),
    ).toBe(0);
    expect(readyWhileStopping).toMatchObject({
      status: 503,
      body: { status: 'shutting_down', Message: 'Not ready: shutting down' },
    });
    // What it did not take is taken by the next worker.
    await app.startWorker();
    await eventually(async () => ((await applied(accepted)) ? true : undefined));
  });

  it('the api answers every request in flight, refuses new ones with 503 in the error shape, exits 0', async () => {
    // A profile to delete: DELETE waits for the worker, which is stopped below, so it stays
    // in flight while the api drains.
    const created = await request(app.http)
      .post(base())
      .set('Authorization', auth)
      .send({ CustomerType: 'Customer' });
    const deleted = created.body.ProfileId as number;
    await eventually(async () => ((await applied([deleted])) ? true : undefined));
    await app.stopWorker(app.workers[0]);

    let received = 0;
    app.http.on('request', () => received++);
    const send = (test: request.Test) =>
      new Promise<request.Response>((resolve, reject) =>
        test.end((error, response) => (error ? reject(error) : resolve(response))),
      );
    const inFlight = [
      send(request(app.http).delete(`${base()}/${deleted}`).set('Authorization', auth)),
      ...Array.from({ length: 29 }, (_, i) =>
        send(
          i % 3 === 0
            ? request(app.http)
                .get(`/Profiles/v4/${tenant.clientId}/ConsentStatus`)
                .set('Authorization', auth)
            : request(app.http)
                .post(base())
                .set('Authorization', auth)
                .send({ CustomerType: 'Customer' }),
        ),
      ),
    ];
    await eventually(async () => (received >= inFlight.length ? true : undefined));
    const exited = terminate(() => closeApiApp(app.api, app.settings));

    // While the DELETE is still running: a new request is refused, in the error shape.
    const refused = await request(app.http)
      .get(`/Profiles/v4/${tenant.clientId}/ConsentStatus`)
      .set('Authorization', auth);
    expect(refused.status).toBe(503);
    expect(refused.body).toEqual({ Message: expect.stringMatching(/shutting down/) });
    expect(refused.headers['retry-after']).toBe('1');
    expect(refused.headers.connection).toBe('close');

    // Every request in flight was answered; the api then exited 0.
    const responses = await Promise.all(inFlight);
    expect(responses.map((response) => response.status)).toEqual([
      202,
      ...Array.from({ length: 29 }, (_, i) => (i % 3 === 0 ? 200 : 202)),
    ]);
    expect(await exited).toBe(0);

    // No accepted write is lost: a worker started now applies every one.
    await app.startWorker();
    const accepted = responses.slice(1).filter((response) => response.status === 202);
    await eventually(async () =>
      (await applied(accepted.map((response) => response.body.ProfileId as number)))
        ? true
        : undefined,
    );
    const profiles = app.workers[0].get(ProfileRepository, { strict: false });
    await eventually(async () =>
      (await profiles.findOne(tenant.clientId, deleted))?.state === 'deleted' ? true : undefined,
    );
  });
});
