import { Injectable, Logger } from '@nestjs/common';
import { type DiscoveryService, Reflector } from '@nestjs/core';
import Bull from 'bull';
import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import {
  defineJob,
  HandlesJob,
  JobRunner,
  type JobQueue,
  type JobRunLog,
  type LeaseService,
  Settings,
  type TenantFairQueue,
} from '@app/shared';
import { startFreezableProxy } from '../harness/freezable-proxy';
import { eventually } from '../harness/test-app';

/**
 * A worker whose queue connection is not ready yet when it starts (Redis slow to answer):
 * the job runner must not wait for that connection once per kind of job. Bull waits with
 * three listeners on the connection ('ready', 'error', 'end') per processor, so a processor
 * per kind made eleven kinds three MaxListenersExceededWarning lines ("11 ready listeners
 * added to [Commander]", ioredis's client) at every start. Real Bull, real Redis (behind a
 * proxy that holds its answers); the handlers are stand-ins.
 */
describe('a worker starting before its queue connection is ready', () => {
  it('adds no listener per kind of job to the connection (no MaxListenersExceededWarning)', async () => {
    Logger.overrideLogger(['error']);
    const kinds = Array.from({ length: 12 }, (_, i) => defineJob<object>({ name: `kind-${i}` }));
    const handlers = kinds.map((kind) => {
      @Injectable()
      @HandlesJob(kind)
      class Handler {
        handle = async () => undefined;
      }
      return Handler;
    });
    const redis = new URL(process.env.TEST_REDIS_URL!);
    const proxy = await startFreezableProxy({ host: redis.hostname, port: Number(redis.port) });
    proxy.freeze();
    const queue = new Bull('jobs', `redis://127.0.0.1:${proxy.port}`, {
      prefix: `test-${randomBytes(6).toString('hex')}`,
    });
    const discovery = {
      getProviders: () => handlers.map((metatype) => ({ metatype, instance: new metatype() })),
    } as unknown as DiscoveryService;
    const runner = new JobRunner(
      queue,
      {} as JobQueue,
      {} as TenantFairQueue,
      discovery,
      new Reflector(),
      new Settings({ MONGODB_URI: 'mongodb://unused/x', REDIS_URL: process.env.TEST_REDIS_URL }),
      {} as JobRunLog,
      {} as LeaseService,
      kinds,
    );
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
      // Closed only once Bull has named its blocking connection as this queue's worker:
      // `process()` sends that CLIENT SETNAME without awaiting it, and rethrows its failure,
      // so a close in the first milliseconds rejected it with nothing to catch it ("Connection
      // is closed.", an unhandled rejection that failed this test about once in 40 runs).
      await eventually(async () => ((await queue.getWorkers()).length > 0 ? true : undefined));
      await queue.close();
      await proxy.close();
    }
  });
});
