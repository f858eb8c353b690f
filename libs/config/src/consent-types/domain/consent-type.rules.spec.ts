import {
  consentTypeProblems,
  latestVersion,
  missingVersions,
  repeatedVersion,
} from './consent-type.rules';

describe('consent type rules', () => {
  it('refuses an attribute key given twice (any case), naming both positions', () => {
    expect(
      consentTypeProblems(
        { Attributes: [{ Key: 'Source' }, { Key: 'Region' }, { Key: ' source' }] },
        'ConsentTypes[2]',
      ),
    ).toEqual([
      'Invalid ConsentTypes[2].Attributes[2].Key (value " source"): repeats Attributes[0].Key',
    ]);
    expect(consentTypeProblems({ Attributes: [{ Key: 'A' }, { Key: 'B' }] }, '')).toEqual([]);
    expect(consentTypeProblems({}, '')).toEqual([]);
  });

  it('finds a version named twice, trimmed and case-insensitively', () => {
    expect(repeatedVersion([{ ConsentVersion: 'v1' }, { ConsentVersion: 'v2' }])).toBeNull();
    expect(repeatedVersion([{ ConsentVersion: 'v1' }, { ConsentVersion: ' V1 ' }])).toBe(' V1 ');
  });

  it('lists the versions a change would drop', () => {
    const before = [{ ConsentVersion: '1.0' }, { ConsentVersion: '2.0' }];
    expect(missingVersions(before, [{ ConsentVersion: '2.0' }, { ConsentVersion: '1.0' }])).toEqual(
      [],
    );
    expect(missingVersions(before, [{ ConsentVersion: '1.0' }, { ConsentVersion: '3.0' }])).toEqual(
      ['2.0'],
    );
  });

  it('takes the last published version as the most recent, the later one on a tie', () => {
    expect(latestVersion([])).toBeUndefined();
    const versions = [
      { ConsentVersion: 'b', PublishedDate: '2024-02-01T00:00:00.000Z' },
      { ConsentVersion: 'c', PublishedDate: '2024-03-01T00:00:00.000Z' },
      { ConsentVersion: 'a', PublishedDate: '2024-01-01T00:00:00.000Z' },
    ];
    expect(latestVersion(versions)?.ConsentVersion).toBe('c');
    const together = [
      { ConsentVersion: 'x', PublishedDate: '2024-01-01T00:00:00.000Z' },
      { ConsentVersion: 'y', PublishedDate: '2024-01-01T00:00:00.000Z' },
    ];
    expect(latestVersion(together)?.ConsentVersion).toBe('y');
  });
});
