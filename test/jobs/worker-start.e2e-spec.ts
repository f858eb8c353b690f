import { Injectable, Logger } from '@nestjs/common';
import { type DiscoveryService, Reflector } from '@nestjs/core';
import Bull from 'bull';
import Redis from 'ioredis';
import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import {
  defineJob,
  HandlesJob,
  JobQueues,
  JobRunner,
  type JobQueue,
  type JobRunLog,
  type LeaseService,
  Settings,
  type TenantFairQueue,
} from '@app/shared';
import { type FreezableProxy, startFreezableProxy } from '../harness/freezable-proxy';
import { eventually } from '../harness/test-app';

/**
 * A worker whose queue connection is not ready yet when it starts (Redis slow to answer):
 * the job runner must not wait for that connection once per kind of job. Bull waits with
 * three listeners on the connection ('ready', 'error', 'end') per processor, so a processor
 * per kind made eleven kinds three MaxListenersExceededWarning lines ("11 ready listeners
 * added to [Commander]", ioredis's client) at every start. And a worker stopped before Redis
 * answered must stop as usual, not end with an unhandled rejection. Real Bull, real Redis
 * (behind a proxy that holds its answers); the handlers are stand-ins.
 */
describe('a worker starting before its queue connection is ready', () => {
  beforeAll(() => Logger.overrideLogger(['error']));

  const kinds = Array.from({ length: 12 }, (_, i) => defineJob<object>({ name: `kind-${i}` }));
  const handlers = kinds.map((kind) => {
    @Injectable()
    @HandlesJob(kind)
    class Handler {
      handle = async () => undefined;
    }
    return Handler;
  });

  /** Real Bull on a queue reached through `proxy`; the runner's other parts are unused. */
  function runnerOn(
    proxy: FreezableProxy,
    options: Bull.QueueOptions = {},
  ): { queue: Bull.Queue; runner: JobRunner } {
    const queue = new Bull('jobs', `redis://127.0.0.1:${proxy.port}`, {
      prefix: `test-${randomBytes(6).toString('hex')}`,
      ...options,
    });
    const discovery = {
      getProviders: () => handlers.map((metatype) => ({ metatype, instance: new metatype() })),
    } as unknown as DiscoveryService;
    const runner = new JobRunner(
      new JobQueues([{ name: 'jobs', queue, fair: {} as TenantFairQueue }], ['jobs']),
      {} as JobQueue,
      discovery,
      new Reflector(),
      new Settings({ MONGODB_URI: 'mongodb://unused/x', REDIS_URL: process.env.TEST_REDIS_URL }),
      {} as JobRunLog,
      {} as LeaseService,
      kinds,
    );
    return { queue, runner };
  }

  async function redisProxy(): Promise<FreezableProxy> {
    const redis = new URL(process.env.TEST_REDIS_URL!);
    return startFreezableProxy({ host: redis.hostname, port: Number(redis.port) });
  }

  it('adds no listener per kind of job to the connection (no MaxListenersExceededWarning)', async () => {
    const proxy = await redisProxy();
    proxy.freeze();
    const { queue, runner } = runnerOn(proxy);
    try {
      expect(queue.client.status).not.toBe('ready');
      runner.onApplicationBootstrap();
      const listeners = Object.fromEntries(
        ['ready', 'error', 'end'].map((event) => [event, queue.client.listenerCount(event)]),
      );
      // Node warns from the limit on (10 by default); one processor adds one set of three.
      expect(
        Object.values(listeners).filter((count) => count >= EventEmitter.defaultMaxListeners),
      ).toEqual([]);
    } finally {
      runner.onApplicationShutdown();
      proxy.thaw();
      // Closed once Bull has named its blocking connection as this queue's worker: the
      // other case is the close before that.
      await eventually(async () => ((await queue.getWorkers()).length > 0 ? true : undefined));
      await queue.close();
      await proxy.close();
    }
  });

  it('stopped before Redis answered, it closes without an unhandled rejection', async () => {
    // Bull's process() names its blocking connection (CLIENT SETNAME) without awaiting the
    // answer, and rethrows its failure: a stop before the answer (its pause cuts that
    // connection) rejected it with nothing to catch it ("Connection is closed."), which
    // ends a Node process, and fails this test. Here only the blocking connection goes
    // through the frozen proxy, so the answer never comes before the stop.
    const proxy = await redisProxy();
    proxy.freeze();
    const clients: Redis[] = [];
    const { queue, runner } = runnerOn(proxy, {
      createClient: (type, options) => {
        const client = new Redis({
          ...options,
          ...(type === 'client' ? {} : { maxRetriesPerRequest: null }),
          port: type === 'bclient' ? proxy.port : Number(new URL(process.env.TEST_REDIS_URL!).port),
        });
        clients.push(client);
        return client;
      },
    });
    const warnings = jest.spyOn(Logger.prototype, 'warn');
    try {
      runner.onApplicationBootstrap();
      // The name is asked for once the queue's own connection is ready.
      await eventually(async () =>
        clients.find((client) => client.options.connectionName === queue.clientName()),
      );
      expect(await runner.stop(100)).toBe(false);
      runner.onApplicationShutdown();
      proxy.thaw();
      await queue.close(true);
      // The failed naming is logged, not left unhandled.
      expect(warnings.mock.calls.map(([message]) => String(message))).toContain(
        "naming this worker's Redis connection failed: Error: Connection is closed.",
      );
    } finally {
      warnings.mockRestore();
      proxy.thaw();
      for (const client of clients) client.disconnect();
      await proxy.close();
    }
  });
});
