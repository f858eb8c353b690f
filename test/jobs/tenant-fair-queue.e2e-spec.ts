import { type FairItem, type JobLane, TenantFairQueue } from '@app/shared';
import { startTestApp, type TestApp } from '../harness/test-app';

/*
 * The fair queue's order, on the real Redis: which tenant's item each turn takes. No worker
 * runs (the turns here are the test's own ids), so nothing else takes items.
 */
describe('TenantFairQueue', () => {
  let app: TestApp;
  let fair: TenantFairQueue;
  let turn = 0;

  beforeAll(async () => {
    app = await startTestApp({ workers: 0, env: { TENANT_MAX_RUNNING: '2' } });
    fair = app.api.get(TenantFairQueue);
  });
  afterAll(() => app.close());

  const item = (tenant: string, n: number, lane: JobLane = 'interactive'): FairItem => ({
    id: `${tenant}-${lane}-${n}`,
    job: 'test-job',
    tenant,
    lane,
    payload: { n },
  });
  const push = async (tenant: string, count: number, lane: JobLane = 'interactive') => {
    for (let n = 1; n <= count; n++) await fair.push(item(tenant, n, lane));
  };
  /** Takes `count` items with fresh turns; the ids of what they took (null: nothing). */
  const take = async (count: number) => {
    const taken: (string | null)[] = [];
    for (let n = 0; n < count; n++) {
      const id = `t${++turn}`;
      const got = await fair.take(id);
      if (got) await fair.done(id, got);
      taken.push(got?.id ?? null);
    }
    return taken;
  };

  it("serves a tenant with one item after at most a turn's worth of a flooding tenant's", async () => {
    await push('flood', 40);
    await push('quiet', 2);
    const taken = await take(8);
    expect(taken).toEqual([
      ...[1, 2, 3, 4].map((n) => `flood-interactive-${n}`),
      'quiet-interactive-1',
      'quiet-interactive-2',
      ...[5, 6].map((n) => `flood-interactive-${n}`),
    ]);
    // The rest of the flood, in its own order, then nothing.
    const rest = await take(35);
    expect(rest).toEqual([
      ...Array.from({ length: 34 }, (_, n) => `flood-interactive-${n + 7}`),
      null,
    ]);
  });

  it('gives a tenant another turn whenever a newcomer arrives, whatever the backlog', async () => {
    await push('big', 100);
    expect(await take(2)).toEqual(['big-interactive-1', 'big-interactive-2']);
    await push('late', 1);
    // `big` finishes its turn of four, then the newcomer goes.
    expect(await take(3)).toEqual(['big-interactive-3', 'big-interactive-4', 'late-interactive-1']);
    expect(await take(1)).toEqual(['big-interactive-5']);
    await take(95);
    expect(await take(1)).toEqual([null]);
  });

  it("weighs a tenant's bulk work lower than interactive work", async () => {
    await push('imp', 10, 'bulk');
    await push('live', 10);
    const taken = await take(10);
    expect(taken).toEqual([
      'imp-bulk-1',
      ...[1, 2, 3, 4].map((n) => `live-interactive-${n}`),
      'imp-bulk-2',
      ...[5, 6, 7, 8].map((n) => `live-interactive-${n}`),
    ]);
    await take(11);
    expect(await take(1)).toEqual([null]);
  });

  it('gives a retried turn the item it took before, and removes an item whose turn was not added', async () => {
    await push('r', 3);
    const first = await fair.take('retried');
    expect(first?.id).toBe('r-interactive-1');
    // The turn failed (no `done`): Bull runs it again under the same id.
    expect((await fair.take('retried'))?.id).toBe('r-interactive-1');
    await fair.done('retried', first!);
    await fair.remove(item('r', 2));
    expect(await take(2)).toEqual(['r-interactive-3', null]);
  });

  it('asks for turns when the ring has work and nobody took any for a while', async () => {
    const now = Date.now();
    await push('idle-a', 1);
    await push('idle-b', 1, 'bulk');
    const idle = await fair.take('idle-turn', now);
    await fair.done('idle-turn', idle!);
    // Taken just now: no top-up yet.
    expect(await fair.idleEntries(now + 1000)).toBe(0);
    expect(await fair.idleEntries(now + 60_000)).toBe(1);
    // Asked once: the next look waits for another idle period.
    expect(await fair.idleEntries(now + 60_001)).toBe(0);
    expect(await take(2)).toEqual(['idle-b-bulk-1', null]);
    expect(await fair.idleEntries(now + 600_000)).toBe(0);
  });

  it('runs at most TENANT_MAX_RUNNING items of a tenant at once; a turn that found only capped work is owed', async () => {
    await push('cap', 5);
    await push('other', 1);
    const first = await fair.take('cap-1');
    const second = await fair.take('cap-2');
    expect([first?.id, second?.id]).toEqual(['cap-interactive-1', 'cap-interactive-2']);
    // `cap` runs two (the cap): the next turn goes to the other tenant, then to nobody.
    const other = await fair.take('cap-3');
    expect(other?.id).toBe('other-interactive-1');
    expect(await fair.take('cap-4')).toBeNull();
    // Counted per tenant: its item of another job waits too.
    await fair.push({ ...item('cap', 99), job: 'other-job' });
    expect(await fair.take('cap-9')).toBeNull();
    // The other tenant's item done: no turn owed to it. `cap`'s dones: the owed turns back.
    expect(await fair.done('cap-3', other!)).toBe(false);
    expect(await fair.done('cap-1', first!)).toBe(true);
    expect(await fair.done('cap-2', second!)).toBe(true);
    // A retried turn keeps its item whatever the cap.
    const third = await fair.take('cap-5');
    const fourth = await fair.take('cap-6');
    expect(await fair.take('cap-7')).toBeNull();
    expect((await fair.take('cap-5'))?.id).toBe(third?.id);
    // A running mark of a worker that died without a retry frees its place after a while.
    const later = await fair.take('cap-8', Date.now() + 10 * 60 * 1000);
    expect(later?.id).toBe('cap-interactive-5');
    for (const [turn, taken] of [
      ['cap-5', third],
      ['cap-6', fourth],
      ['cap-8', later],
    ] as const)
      await fair.done(turn, taken!);
    expect(await take(2)).toEqual(['cap-interactive-99', null]);
  });

  it("gives back the turns owed to a tenant's job whose running marks lapsed (a killed worker)", async () => {
    const now = Date.now();
    await push('lapse', 3);
    const first = await fair.take('lapse-1', now);
    const second = await fair.take('lapse-2', now);
    expect(await fair.take('lapse-3', now)).toBeNull();
    // Both still running: nothing to give back.
    expect(await fair.reclaimOwed(now + 1000)).toBe(0);
    // Their worker was killed: no `done`, no renewal; the marks lapse, the owed turn comes back once.
    expect(await fair.reclaimOwed(now + 60_000)).toBe(1);
    expect(await fair.reclaimOwed(now + 60_001)).toBe(0);
    const third = await fair.take('lapse-4', now + 60_002);
    expect(third?.id).toBe('lapse-interactive-3');
    for (const [turn, taken] of [
      ['lapse-1', first],
      ['lapse-2', second],
      ['lapse-4', third],
    ] as const)
      expect(await fair.done(turn, taken!)).toBe(false);
  });

  it('runs every item with the turns it was given, however the jobs of capped tenants mix and finish', async () => {
    // A worker's life simulated with the real scripts: each push brings one turn, each turn
    // takes or is owed, items finish in a random order, and a `done` that says a turn is owed
    // adds one. No timer (reclaimOwed, idle top-up) is used: the turns alone must carry it all.
    let seed = 7;
    const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    const turns: string[] = [];
    const running: { turn: string; item: FairItem }[] = [];
    const pushed = new Set<string>();
    const ran = new Set<string>();
    let next = 0;
    for (let n = 0; n < 60; n++) {
      const tenant = random() < 0.7 ? 'mixA' : 'mixB';
      const job = random() < 0.5 ? 'apply' : 'deliver';
      const queued: FairItem = { ...item(tenant, n), job };
      await fair.push(queued);
      pushed.add(queued.id);
      turns.push(`mix-${next++}`);
    }
    while (turns.length || running.length) {
      if (turns.length && (random() < 0.6 || !running.length)) {
        const turn = turns.shift()!;
        const taken = await fair.take(turn);
        if (taken) running.push({ turn, item: taken });
      } else {
        const [finished] = running.splice(Math.floor(random() * running.length), 1);
        ran.add(finished.item.id);
        if (await fair.done(finished.turn, finished.item)) turns.push(`mix-${next++}`);
      }
    }
    expect([...ran].sort()).toEqual([...pushed].sort());
  });
});
