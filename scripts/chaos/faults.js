'use strict';
// The faults of a run, each an independent loop that waits about its period (±25 % at
// random, so that faults overlap in changing ways) and then acts, until `stop()`: which
// waits for the action under way to end, so that nothing stays paused. Faults on Redis share
// a lock (a stall and a restart of the same process must not interleave).
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const jitter = (ms) => Math.round(ms * (0.75 + Math.random() * 0.5));

const STALL_MS = 3000;

/**
 * What each fault does and how often (the figures; Redis's are this script's).
 * `cluster`: only with (true) or without (false) `--redis=cluster`; absent: either.
 */
const FAULTS = {
  engine: {
    everyMs: 5000,
    what: `FerretDB stalled (SIGSTOP) for ${STALL_MS / 1000} s`,
    async act(stack) {
      stack.pause(stack.engine);
      await sleep(STALL_MS);
      stack.resume(stack.engine);
    },
  },
  worker: {
    everyMs: 5000,
    what: 'worker killed (SIGKILL), restarted at once',
    act: (stack) => stack.worker.kill(),
  },
  api: {
    everyMs: 12000,
    what: 'an api process killed (SIGKILL, each in turn), restarted at once',
    async act(stack, state) {
      const api = stack.apis[state.nextApi++ % stack.apis.length];
      await api.kill();
    },
  },
  redis: {
    everyMs: 10000,
    what: `redis-server stalled (SIGSTOP) for ${STALL_MS / 1000} s`,
    cluster: false,
    lock: 'redis',
    async act(stack) {
      stack.pause(stack.redis);
      await sleep(STALL_MS);
      stack.resume(stack.redis);
    },
  },
  'redis-failover': {
    everyMs: 20000,
    cluster: true,
    what: 'a Redis Cluster master killed (SIGKILL): its replica takes over, it rejoins as a replica',
    lock: 'redis',
    act: (stack) => stack.failoverMaster(),
  },
  'redis-restart': {
    everyMs: 20000,
    what: 'redis-server killed (SIGKILL) and started again empty on its port',
    cluster: false,
    lock: 'redis',
    act: (stack) => stack.restartRedisEmpty(),
  },
};

/** Starts the loops of the named faults; returns { counts, stop() }. */
function startFaults(stack, names, { log }) {
  let running = true;
  let wake;
  const stopped = new Promise((resolve) => (wake = resolve));
  /** A wait that ends early when the faults stop. */
  const pause = (ms) => Promise.race([sleep(ms), stopped]);
  const counts = Object.fromEntries(names.map((name) => [name, 0]));
  const locks = {};
  const state = { nextApi: 0 };
  const withLock = (name, fn) => {
    if (!name) return fn();
    const previous = locks[name] ?? Promise.resolve();
    const next = previous.then(fn, fn);
    locks[name] = next.catch(() => undefined);
    return next;
  };
  const loop = async (name) => {
    const fault = FAULTS[name];
    while (running) {
      await pause(jitter(fault.everyMs));
      if (!running) break;
      try {
        await withLock(fault.lock, () => fault.act(stack, state));
        counts[name]++;
        log(`fault: ${name}`);
      } catch (error) {
        log(`fault ${name} failed: ${error.message}`);
      }
    }
  };
  const loops = names.map(loop);
  return {
    counts,
    async stop() {
      running = false;
      wake();
      await Promise.all(loops);
      // Belt and braces: whatever a loop left paused runs again.
      stack.resume(stack.engine);
      if (stack.redis) stack.resume(stack.redis);
    },
  };
}

module.exports = { FAULTS, startFaults };
