import { latestRevisions } from './revision-store';

describe('latestRevisions', () => {
  const revision = (id: number, rev: number) => ({ id, revision: rev, name: `${id}r${rev}` });

  it('keeps the highest revision of each entry, in the order entries first appear', () => {
    const result = latestRevisions(
      [revision(2, 1), revision(1, 2), revision(1, 3), revision(3, 2), revision(3, 1)],
      (entry) => entry.id,
    );
    expect(result.map((entry) => entry.name)).toEqual(['2r1', '1r3', '3r2']);
  });

  it('answers nothing for nothing', () => {
    expect(latestRevisions([], () => 0)).toEqual([]);
  });
});
