import { pinnedKey, sameSlotGroups, slotOf, taggedKey } from './redis-keys';

describe('the Redis key scheme', () => {
  it('keys of one tag share a slot; different profiles spread', () => {
    const entry = taggedKey('pcp', 'pm', 'c1|7');
    const flag = taggedKey('pcp', 'applyq', 'c1|7');
    expect(entry).toBe('pcp:pm:{c1|7}');
    expect(slotOf(entry)).toBe(slotOf(flag));
    expect(slotOf(entry)).toBe(slotOf('c1|7'));
    const slots = new Set(
      Array.from({ length: 200 }, (_, id) => slotOf(taggedKey('pcp', 'pm', `c1|${id}`))),
    );
    expect(slots.size).toBeGreaterThan(190);
  });

  it('a pinned family: every key in one slot, one per prefix', () => {
    const ring = `${pinnedKey('pcp', 'fair')}:ring`;
    const list = `${pinnedKey('pcp', 'fair')}:q:tenant-a|bulk`;
    expect(ring).toBe('pcp:{pcp:fair}:ring');
    expect(slotOf(ring)).toBe(slotOf(list));
    expect(slotOf(ring)).not.toBe(slotOf(`${pinnedKey('other', 'fair')}:ring`));
  });

  it('sameSlotGroups: one group on one node; per slot, in first-seen order, on a cluster', () => {
    const keys = ['pcp:pm:{a}', 'pcp:pm:{b}', 'pcp:applyq:{a}', 'pcp:pm:{c}'];
    expect(sameSlotGroups(keys, (key) => key, true)).toEqual([keys]);
    expect(sameSlotGroups([], (key: string) => key, false)).toEqual([]);
    const groups = sameSlotGroups(keys, (key) => key, false);
    expect(groups).toEqual([['pcp:pm:{a}', 'pcp:applyq:{a}'], ['pcp:pm:{b}'], ['pcp:pm:{c}']]);
  });
});
