import { picklistProblems } from './picklist.rules';

describe('picklistProblems', () => {
  it('accepts distinct values', () => {
    expect(picklistProblems({ FieldSelectOptions: [{ Value: 'A' }, { Value: 'B' }] }, '')).toEqual(
      [],
    );
  });

  it('refuses a value repeated in another case or spacing, naming both positions', () => {
    expect(
      picklistProblems(
        { FieldSelectOptions: [{ Value: 'Gold' }, { Value: 'Silver' }, { Value: ' gold ' }] },
        'Picklists[1]',
      ),
    ).toEqual([
      'Invalid Picklists[1].FieldSelectOptions[2].Value (value " gold "): repeats FieldSelectOptions[0].Value; values are unique within a picklist',
    ]);
  });
});
