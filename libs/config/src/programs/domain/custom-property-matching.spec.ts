import {
  matchProgram,
  matchProgramGroups,
  parseCriteria,
  type MatchableGroup,
  type MatchableProgram,
} from './custom-property-matching';

const kv = (entries: Record<string, string | undefined>) =>
  Object.entries(entries).map(([Key, Value]) => ({ Key, Value }));

const eu: MatchableProgram = {
  CustomProperties: kv({ Jurisdiction: 'EU' }),
  Filters: [
    { CustomProperties: kv({ OnlineOnly: 'True' }) },
    { CustomProperties: kv({ OnlineOnly: 'False' }) },
    { CustomProperties: [] },
    { CustomProperties: kv({ Jurisdiction: 'US' }) },
  ],
};

describe('parseCriteria', () => {
  it('reads names with and without values, case-insensitively', () => {
    expect(parseCriteria({ Jurisdiction: 'EU', LifeCycleStage: '', X: [' A ', 'b'] })).toEqual([
      { key: 'jurisdiction', value: 'eu' },
      { key: 'lifecyclestage', value: undefined },
      { key: 'x', value: 'a' },
      { key: 'x', value: 'b' },
    ]);
  });

  it('refuses an empty name', () => {
    expect(() => parseCriteria({ ' ': 'x' })).toThrow('custom property name is empty');
  });
});

describe('matchProgram', () => {
  it('matches by value, case-insensitively, and filters inherit the program properties', () => {
    const match = matchProgram(eu, parseCriteria({ jurisdiction: 'eu' }));
    expect(match.matches).toBe(true);
    // The fourth filter overrides Jurisdiction.
    expect(match.matchingFilters).toEqual([0, 1, 2]);
  });

  it('returns a program that does not match when one of its filters does', () => {
    const match = matchProgram(eu, parseCriteria({ Jurisdiction: 'EU', OnlineOnly: 'true' }));
    expect(match).toMatchObject({ matches: false, returned: true, matchingFilters: [0] });
  });

  it('matches a name without a value whatever the value', () => {
    const match = matchProgram(eu, parseCriteria({ OnlineOnly: '' }));
    expect(match).toMatchObject({ matches: false, returned: true, matchingFilters: [0, 1] });
  });

  it('does not return a program when nothing matches', () => {
    expect(matchProgram(eu, parseCriteria({ Jurisdiction: 'APAC' })).returned).toBe(false);
    expect(matchProgram(eu, parseCriteria({ Missing: '' })).returned).toBe(false);
  });

  it('matches every program when there is no criterion', () => {
    expect(matchProgram(eu, []).matchingFilters).toEqual([0, 1, 2, 3]);
  });
});

describe('matchProgramGroups', () => {
  const programs = new Map<number, MatchableProgram>([
    [1, eu],
    [2, { CustomProperties: [], Filters: [{ CustomProperties: kv({ Topic: 'News' }) }] }],
  ]);
  const group = (
    groupId: number,
    props: Record<string, string>,
    ProgramIds: number[],
    ProgramGroupIds: number[],
  ): MatchableGroup => ({ groupId, CustomProperties: kv(props), ProgramIds, ProgramGroupIds });

  it('answers root groups, with nested groups inheriting their properties', () => {
    const groups = [group(1, { Brand: 'A' }, [], [2]), group(2, {}, [2], [])];
    const result = matchProgramGroups(groups, programs, parseCriteria({ Brand: 'a', Topic: '' }));
    expect(result.map((match) => match.group.groupId)).toEqual([1]);
    const [root] = result;
    expect(root.matches).toBe(false);
    expect(root.groups[0].programs[0]).toMatchObject({ matches: false, matchingFilters: [0] });
  });

  it('answers nothing when nothing matches', () => {
    const groups = [group(1, { Brand: 'A' }, [1], [])];
    expect(matchProgramGroups(groups, programs, parseCriteria({ Brand: 'B' }))).toEqual([]);
  });

  it('survives a cycle', () => {
    const groups = [group(1, {}, [], [2]), group(2, {}, [], [1]), group(3, {}, [], [1])];
    const result = matchProgramGroups(groups, programs, []);
    expect(result.map((match) => match.group.groupId)).toEqual([3]);
    expect(result[0].groups[0].groups[0].groups).toEqual([]);
  });
});
