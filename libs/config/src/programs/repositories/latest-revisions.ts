/** Keeps the highest revision of each entry (`idOf`), in the order of first appearance. */
export function latestRevisions<T extends { revision: number }>(
  revisions: T[],
  idOf: (entry: T) => number,
): T[] {
  const latest = new Map<number, T>();
  for (const revision of revisions) {
    const known = latest.get(idOf(revision));
    if (!known || revision.revision > known.revision) latest.set(idOf(revision), revision);
  }
  return [...latest.values()];
}
