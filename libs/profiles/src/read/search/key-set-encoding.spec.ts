import { idsInEveryGroup } from './key-set-encoding';

// The scripts themselves run against a real Redis in test/profiles/search-index.e2e-spec.ts
// (and on a cluster in the e2e-cluster project).
describe('the key index query on a cluster', () => {
  it('unites a group’s answers from its slots and intersects the groups, ascending', () => {
    // Group 1: keys in two slots; group 2: one key.
    expect(
      idsInEveryGroup([
        [
          [9, 3],
          [3, 700],
        ],
        [[700, 5, 9, 1]],
      ]),
    ).toEqual([9, 700]);
    expect(idsInEveryGroup([[[4, 2, 8]]])).toEqual([2, 4, 8]);
  });

  it('finds nothing when a group holds nothing', () => {
    expect(idsInEveryGroup([[[1, 2]], [[]], [[1]]])).toEqual([]);
    expect(idsInEveryGroup([])).toEqual([]);
  });
});
