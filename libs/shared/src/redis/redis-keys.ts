import calculateSlot from 'cluster-key-slot';

/*
 * The Redis key scheme (docs/scaling.md, "Redis", the table of key families): every key
 * starts with QUEUE_PREFIX and holds at most one hash tag (`{...}`), which decides its
 * cluster slot. Keys a Lua script or MULTI touches together share a tag; a family whose
 * keys are used one at a time has none (the whole key is hashed, so it spreads over every
 * slot). Built by concatenation: some are built on every GET.
 */

/** `<prefix>:<family>:{<tag>}`: keys with the same family and tag share a slot. */
export function taggedKey(prefix: string, family: string, tag: string): string {
  return prefix + ':' + family + ':{' + tag + '}';
}

/**
 * `<prefix>:{<prefix>:<family>}`: the start of every key of a family pinned to one slot
 * (one node of a cluster), for families whose scripts reach keys they cannot name in
 * advance. The tag holds the prefix too, so that services (or test files) with different
 * prefixes on one cluster pin theirs to different slots.
 */
export function pinnedKey(prefix: string, family: string): string {
  return prefix + ':{' + prefix + ':' + family + '}';
}

/** The cluster slot of a key (its hash tag's, when it has one). */
export function slotOf(key: string): number {
  return calculateSlot(key);
}

/**
 * `items` in groups whose keys share a slot (a script or multi-key command may take each
 * group), in their first appearance's order; all in one group when `oneNode` (one Redis
 * takes any keys together).
 */
export function sameSlotGroups<T>(items: T[], keyOf: (item: T) => string, oneNode: boolean): T[][] {
  if (oneNode || items.length < 2) return items.length ? [items] : [];
  const groups = new Map<number, T[]>();
  for (const item of items) {
    const slot = calculateSlot(keyOf(item));
    const group = groups.get(slot);
    if (group) group.push(item);
    else groups.set(slot, [item]);
  }
  return [...groups.values()];
}
