import { customFieldDefinitionProblems } from './custom-field-definition.rules';

describe('customFieldDefinitionProblems', () => {
  it('accepts consistent definitions', () => {
    expect(
      customFieldDefinitionProblems(
        {
          FieldType: 'Text',
          Name: 'Code',
          MinLength: 1,
          MaxLength: 10,
          ValidationRegex: '^[A-Z]+$',
          DefaultValue: 'ABC',
        },
        'TextFields[0]',
      ),
    ).toEqual([]);
    expect(
      customFieldDefinitionProblems(
        { FieldType: 'Numeric', Name: 'N', MinValue: 1, MaxValue: 1, DefaultValue: 1 },
        '',
      ),
    ).toEqual([]);
    expect(
      customFieldDefinitionProblems(
        { FieldType: 'DateTime', Name: 'D', MinDate: '2020-01-01', MaxDate: '2021-01-01' },
        '',
      ),
    ).toEqual([]);
  });

  it('refuses a minimum above the maximum, for each type', () => {
    expect(
      customFieldDefinitionProblems(
        { FieldType: 'Text', Name: 'T', MinLength: 5, MaxLength: 4 },
        'TextFields[1]',
      ),
    ).toEqual([
      'Invalid TextFields[1].MinLength (value 5): must not be greater than MaxLength (4)',
    ]);
    expect(
      customFieldDefinitionProblems(
        { FieldType: 'Numeric', Name: 'N', MinValue: 2, MaxValue: 1 },
        '',
      ),
    ).toEqual(['Invalid MinValue (value 2): must not be greater than MaxValue (1)']);
    expect(
      customFieldDefinitionProblems(
        {
          FieldType: 'DateTime',
          Name: 'D',
          MinDate: '2021-01-01',
          MaxDate: '2020-12-31T23:00:00Z',
        },
        '',
      ),
    ).toEqual([
      'Invalid MinDate (value "2021-01-01"): must not be greater than MaxDate ("2020-12-31T23:00:00Z")',
    ]);
  });

  it('refuses a regex that does not compile', () => {
    const [problem] = customFieldDefinitionProblems(
      { FieldType: 'Text', Name: 'T', ValidationRegex: '([a-z' },
      'TextFields[0]',
    );
    expect(problem).toMatch(
      /^Invalid TextFields\[0\]\.ValidationRegex \(value "\(\[a-z"\): must be a valid JavaScript regular expression that cannot backtrack catastrophically \(.+\)$/,
    );
  });

  it('refuses a regex that may backtrack catastrophically', () => {
    for (const pattern of ['^(a+)+$', '(x+x+)+y', '^([a-z0-9]+)*@example\\.com$']) {
      const [problem] = customFieldDefinitionProblems(
        { FieldType: 'Text', Name: 'T', ValidationRegex: pattern },
        'TextFields[0]',
      );
      expect(problem).toContain('may backtrack catastrophically');
    }
    expect(
      customFieldDefinitionProblems(
        { FieldType: 'Text', Name: 'T', ValidationRegex: '^[A-Z]{3}-\\d+$' },
        'TextFields[0]',
      ),
    ).toEqual([]);
  });

  it('refuses dates that are not ISO 8601', () => {
    expect(
      customFieldDefinitionProblems(
        { FieldType: 'DateTime', Name: 'D', MinDate: '01/02/2020' },
        '',
      ),
    ).toEqual(['Invalid MinDate (value "01/02/2020"): must be an ISO 8601 date or date-time']);
  });

  it('refuses a default value the field itself would refuse', () => {
    expect(
      customFieldDefinitionProblems(
        { FieldType: 'Text', Name: 'T', ValidationRegex: '^\\d+$', DefaultValue: 'abc' },
        '',
      ),
    ).toEqual(['Invalid DefaultValue (value "abc"): must match the pattern ^\\d+$']);
    expect(
      customFieldDefinitionProblems(
        { FieldType: 'Numeric', Name: 'N', DecimalPlaces: 1, DefaultValue: 1.25 },
        'NumericFields[0]',
      ),
    ).toEqual([
      'Invalid NumericFields[0].DefaultValue (value 1.25): must have at most 1 decimal places',
    ]);
    expect(
      customFieldDefinitionProblems(
        { FieldType: 'DateTime', Name: 'D', MaxDate: '2020-01-01', DefaultValue: '2021-01-01' },
        '',
      ),
    ).toEqual(['Invalid DefaultValue (value "2021-01-01"): must not be after 2020-01-01']);
  });
});
