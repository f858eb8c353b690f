import { type AddToSharedCount, SharedWindowCounter } from './shared-window-counter';

/** A shared store of windows (as Redis keeps them), with a clock the test moves. */
function sharedStore(clock: { now: number }) {
  const counters = new Map<string, { total: number; endsAt: number }>();
  const add: AddToSharedCount = async (batch, windowMs) =>
    batch.map(({ key, count }) => {
      let counter = counters.get(key);
      if (!counter || clock.now >= counter.endsAt) {
        counter = { total: 0, endsAt: clock.now + windowMs };
        counters.set(key, counter);
      }
      counter.total += count;
      return { total: counter.total, msLeft: counter.endsAt - clock.now };
    });
  return { add, counters };
}

describe('SharedWindowCounter', () => {
  it('counts locally at once, and sees the other processes after a flush', async () => {
    const clock = { now: 10_000 };
    const store = sharedStore(clock);
    const one = new SharedWindowCounter(1000, store.add, () => clock.now);
    const two = new SharedWindowCounter(1000, store.add, () => clock.now);

    expect(one.count('c').count).toBe(1);
    expect(one.count('c').count).toBe(2);
    expect(two.count('c').count).toBe(1); // not yet shared
    await one.flush();
    await two.flush();
    expect(store.counters.get('c')?.total).toBe(3);
    // two learnt one's two requests with its flush; one learns two's with its next.
    expect(two.count('c')).toEqual({ count: 4, msLeft: 1000 });
    expect(one.count('c').count).toBe(3);
    await one.flush();
    expect(one.count('c').count).toBe(5);
  });

  it('starts a new window when the last one ends, here and in the store', async () => {
    const clock = { now: 0 };
    const store = sharedStore(clock);
    const counter = new SharedWindowCounter(1000, store.add, () => clock.now);
    counter.count('c');
    counter.count('c');
    await counter.flush();
    clock.now = 400;
    expect(counter.count('c')).toEqual({ count: 3, msLeft: 600 });
    clock.now = 1000;
    expect(counter.count('c')).toEqual({ count: 1, msLeft: 1000 });
    await counter.flush();
    expect(store.counters.get('c')?.total).toBe(1);
  });

  it('keys are counted apart', () => {
    const counter = new SharedWindowCounter(1000, sharedStore({ now: 0 }).add, () => 0);
    counter.count('a');
    expect(counter.count('b').count).toBe(1);
    expect(counter.count('a').count).toBe(2);
  });

  it('counts alone while the store is unreachable', async () => {
    const clock = { now: 0 };
    const down: AddToSharedCount = () => Promise.reject(new Error('connection refused'));
    const counter = new SharedWindowCounter(1000, down, () => clock.now);
    counter.count('c');
    counter.count('c');
    await counter.flush();
    expect(counter.count('c').count).toBe(3);
  });
});
