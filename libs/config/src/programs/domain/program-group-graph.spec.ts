import { findNestingCycle } from './program-group-graph';

describe('findNestingCycle', () => {
  it('finds none in a tree or a diamond', () => {
    expect(
      findNestingCycle(
        new Map([
          [1, [2, 3]],
          [2, [4]],
          [3, [4]],
          [4, []],
        ]),
      ),
    ).toBeNull();
  });

  it('finds a group containing itself', () => {
    expect(findNestingCycle(new Map([[1, [1]]]))).toEqual([1, 1]);
  });

  it('finds a longer cycle and names it in order', () => {
    expect(
      findNestingCycle(
        new Map([
          [1, [2]],
          [2, [3]],
          [3, [1]],
        ]),
      ),
    ).toEqual([1, 2, 3, 1]);
  });

  it('looks only at what is reachable from the start', () => {
    const edges = new Map([
      [1, [2]],
      [2, [3]],
      [3, [2]],
      [4, [1]],
      [5, []],
    ]);
    expect(findNestingCycle(edges, 5)).toBeNull();
    expect(findNestingCycle(edges, 4)).toEqual([2, 3, 2]);
  });

  it('treats unknown ids as leaves', () => {
    expect(findNestingCycle(new Map([[1, [99]]]))).toBeNull();
  });
});
