/**
 * Finds a cycle in the nesting of program groups: `edges` maps a group id to the ids of the
 * groups it contains. Returns the ids along the cycle, first id repeated at the end
 * (`[1, 2, 1]`), or null when there is none. Unknown ids are leaves. With `start`, only
 * the groups reachable from it are looked at.
 */
export function findNestingCycle(
  edges: ReadonlyMap<number, readonly number[]>,
  start?: number,
): number[] | null {
  const done = new Set<number>();
  const onPath: number[] = [];
  const onPathSet = new Set<number>();

  const visit = (id: number): number[] | null => {
    if (onPathSet.has(id)) return [...onPath.slice(onPath.indexOf(id)), id];
    if (done.has(id)) return null;
    onPath.push(id);
    onPathSet.add(id);
    for (const child of edges.get(id) ?? []) {
      const cycle = visit(child);
      if (cycle) return cycle;
    }
    onPath.pop();
    onPathSet.delete(id);
    done.add(id);
    return null;
  };

  const roots = start === undefined ? [...edges.keys()].sort((a, b) => a - b) : [start];
  for (const id of roots) {
    const cycle = visit(id);
    if (cycle) return cycle;
  }
  return null;
}
