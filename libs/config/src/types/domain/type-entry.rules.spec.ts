import { checkTypeEntries, checkTypeEntry, findRepeatedNames } from './type-entry.rules';

const entry = (TypeName: string, extra: object = {}) => ({
  TypeName,
  LocalizedFields: [{ Locale: 'en' }],
  ...extra,
});

describe('type entry rules', () => {
  it('accepts a plain entry', () => {
    expect(checkTypeEntry(entry('Home'), '')).toEqual([]);
    expect(checkTypeEntries([entry('Home', { IsDefault: true }), entry('Work')], 'X')).toEqual([]);
  });

  it('refuses a locale given twice, case-insensitively', () => {
    expect(
      checkTypeEntry(
        { TypeName: 'Home', LocalizedFields: [{ Locale: 'fr-ca' }, { Locale: 'FR-CA' }] },
        'AddressTypes[0].',
      ),
    ).toEqual([
      'Invalid AddressTypes[0].LocalizedFields[1].Locale (value "FR-CA"): the locale is already in AddressTypes[0].LocalizedFields[0]',
    ]);
  });

  it('refuses an inactive default', () => {
    expect(checkTypeEntry(entry('Home', { IsDefault: true, IsActive: false }), '')).toEqual([
      'Invalid IsDefault (value true): an inactive entry (IsActive false) cannot be the default',
    ]);
    expect(checkTypeEntry(entry('Home', { IsDefault: false, IsActive: false }), '')).toEqual([]);
  });

  it('refuses two defaults in one body', () => {
    expect(
      checkTypeEntries(
        [entry('A', { IsDefault: true }), entry('B'), entry('C', { IsDefault: true })],
        'PhoneTypes',
      ),
    ).toEqual([
      'Invalid PhoneTypes[2].IsDefault (value true): only one entry can be the default and PhoneTypes[0] already is',
    ]);
  });

  it('finds names a body repeats, ignoring case and spaces', () => {
    expect(
      findRepeatedNames([entry('Home'), entry('Work'), entry(' HOME ')], 'AddressTypes'),
    ).toEqual(['AddressTypes[2].TypeName " HOME " repeats AddressTypes[0].TypeName']);
    expect(findRepeatedNames([entry('Home Office'), entry('home  office')], 'K')).toHaveLength(1);
    expect(findRepeatedNames([entry('Home'), entry('Work')], 'K')).toEqual([]);
  });
});
