import { LeaseService, RedisService } from '@app/shared';
import { eventually, startTestApp, type TestApp } from '../harness/test-app';

/**
 * Redis restarted empty forgets every lease while its holders still work. No lease may be
 * granted to another holder until a TTL after the loss (every holder from before has then
 * renewed and failed, or ended), and a process never grants itself a name it still holds.
 */
describe('Leases after Redis lost its data', () => {
  let app: TestApp;
  const TTL_MS = 1500;

  beforeAll(async () => {
    app = await startTestApp({ workers: 1 });
  });
  afterAll(() => app.close());

  /** Every key of this app's prefix deleted: Redis restarted with no data. */
  async function redisLosesItsData(): Promise<void> {
    const redis = app.api.get(RedisService).client;
    const keys = await redis.keys(`${app.settings.queuePrefix}:*`);
    if (keys.length) await redis.del(...keys);
  }

  it('grants no lease until a TTL after the loss, and none a process still holds', async () => {
    const api = app.api.get(LeaseService);
    const worker = app.workers[0].get(LeaseService);
    const held = await api.acquire('loss-test', TTL_MS);
    expect(held).not.toBeNull();
    // Taken: neither another process nor this one gets it.
    expect(await worker.acquire('loss-test', TTL_MS)).toBeNull();
    expect(await api.acquire('loss-test', TTL_MS)).toBeNull();

    await redisLosesItsData();
    const lostAt = Date.now();
    // The holder still works; its key is gone. Another process waits out the TTL...
    expect(await worker.acquire('loss-test', TTL_MS)).toBeNull();
    // ... and so does any other name (nobody knows which were held).
    expect(await worker.acquire('another-name', TTL_MS)).toBeNull();
    // The holder's own process does not grant itself the name it holds.
    expect(await api.acquire('loss-test', TTL_MS)).toBeNull();
    // Its renewal tells the holder it lost the lease.
    expect(await api.extend('loss-test', held!, TTL_MS)).toBe(false);

    const token = await eventually(
      async () => (await worker.acquire('loss-test', TTL_MS)) ?? undefined,
    );
    expect(Date.now() - lostAt).toBeGreaterThanOrEqual(TTL_MS - 100);
    expect(await api.acquire('loss-test', TTL_MS)).toBeNull();
    await worker.release('loss-test', token);
    await api.release('loss-test', held!);
    expect(await api.acquire('loss-test', TTL_MS)).not.toBeNull();
  });
});
