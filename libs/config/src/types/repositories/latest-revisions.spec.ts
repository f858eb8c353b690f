import type { StoredTypeEntry } from '../domain/type-entry.schema';
import { latestRevisions } from './type-entry.repository';

const revision = (typeId: number, rev: number, TypeName = `T${typeId}r${rev}`) =>
  ({ typeId, revision: rev, TypeName }) as StoredTypeEntry;

describe('latestRevisions', () => {
  it('keeps the highest revision of each entry, in the order entries first appear', () => {
    const result = latestRevisions([
      revision(1, 3),
      revision(1, 2),
      revision(2, 1),
      revision(3, 1),
      revision(3, 2),
    ]);
    expect(result.map((entry) => entry.TypeName)).toEqual(['T1r3', 'T2r1', 'T3r2']);
  });

  it('answers nothing for nothing', () => {
    expect(latestRevisions([])).toEqual([]);
  });
});
