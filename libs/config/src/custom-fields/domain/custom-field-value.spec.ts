import {
  checkCustomFieldValue,
  type CustomFieldDefinition,
  customFieldValueProblem,
} from './custom-field-value';
import { UpdateRule } from './update-rules';

const text = (extra: Partial<CustomFieldDefinition> = {}): CustomFieldDefinition => ({
  FieldType: 'Text',
  Name: 'Nickname',
  ...extra,
});
const numeric = (extra: Partial<CustomFieldDefinition> = {}): CustomFieldDefinition => ({
  FieldType: 'Numeric',
  Name: 'Score',
  ...extra,
});
const date = (extra: Partial<CustomFieldDefinition> = {}): CustomFieldDefinition => ({
  FieldType: 'DateTime',
  Name: 'Joined',
  ...extra,
});
const select = (extra: Partial<CustomFieldDefinition> = {}): CustomFieldDefinition => ({
  FieldType: 'SelectList',
  Name: 'Tier',
  DisplayType: 'SingleSelect',
  ...extra,
});
const TIERS = ['GOLD', 'SILVER', 'BRONZE'];

describe('checkCustomFieldValue: types', () => {
  describe('Numeric', () => {
    it('accepts decimal numbers with a sign and a decimal point', () => {
      for (const value of ['0', '12', '-3', '+4', '12.5', '-0.25', '.5']) {
        expect({ value, error: checkCustomFieldValue(numeric(), null, value, null) }).toEqual({
          value,
          error: null,
        });
      }
    });

    it('refuses what is not a decimal number, naming field and value', () => {
      for (const value of ['abc', '1e5', '12.', '1,5', ' 12', '0x10', 'NaN', 'Infinity', '--1']) {
        expect(checkCustomFieldValue(numeric(), null, value, null)).toBe(
          `Custom field Score (value ${JSON.stringify(value)}): must be a decimal number (digits with an optional sign and decimal point, such as -12.5)`,
        );
      }
    });

    it('keeps within MinValue and MaxValue, bounds included', () => {
      const definition = numeric({ MinValue: -5, MaxValue: 10 });
      expect(checkCustomFieldValue(definition, null, '-5', null)).toBeNull();
      expect(checkCustomFieldValue(definition, null, '10', null)).toBeNull();
      expect(checkCustomFieldValue(definition, null, '10.01', null)).toBe(
        'Custom field Score (value "10.01"): must be at most 10',
      );
      expect(checkCustomFieldValue(definition, null, '-6', null)).toBe(
        'Custom field Score (value "-6"): must be at least -5',
      );
    });

    it('allows at most DecimalPlaces decimals, trailing zeros not counted', () => {
      const definition = numeric({ DecimalPlaces: 2 });
      expect(checkCustomFieldValue(definition, null, '1.25', null)).toBeNull();
      expect(checkCustomFieldValue(definition, null, '1.2500', null)).toBeNull();
      expect(checkCustomFieldValue(definition, null, '1.255', null)).toBe(
        'Custom field Score (value "1.255"): must have at most 2 decimal places',
      );
      expect(checkCustomFieldValue(numeric({ DecimalPlaces: 0 }), null, '3.0', null)).toBeNull();
      expect(checkCustomFieldValue(numeric({ DecimalPlaces: 0 }), null, '3.5', null)).toContain(
        'at most 0 decimal places',
      );
      expect(checkCustomFieldValue(numeric(), null, '3.14159265', null)).toBeNull();
    });
  });

  describe('DateTime', () => {
    it('accepts ISO 8601 dates and date-times, with or without offset', () => {
      for (const value of [
        '2024-05-31',
        '2024-05-31T12:00:00Z',
        '2024-05-31T12:00:00.123+02:00',
        '2024-05-31T12:00',
      ]) {
        expect({ value, error: checkCustomFieldValue(date(), null, value, null) }).toEqual({
          value,
          error: null,
        });
      }
    });

    it('refuses other formats', () => {
      for (const value of ['31/05/2024', 'May 31 2024', '2024-13-01', '2024-02-30', 'tomorrow']) {
        expect(checkCustomFieldValue(date(), null, value, null)).toBe(
          `Custom field Joined (value ${JSON.stringify(value)}): must be an ISO 8601 date or date-time (such as 2024-05-31 or 2024-05-31T12:00:00Z)`,
        );
      }
    });

    it('keeps within MinDate and MaxDate, comparing instants', () => {
      const definition = date({ MinDate: '2020-01-01', MaxDate: '2020-12-31T23:59:59Z' });
      expect(checkCustomFieldValue(definition, null, '2020-01-01T00:00:00Z', null)).toBeNull();
      expect(checkCustomFieldValue(definition, null, '2020-06-01T10:00:00+02:00', null)).toBeNull();
      expect(checkCustomFieldValue(definition, null, '2019-12-31T23:00:00-02:00', null)).toBeNull();
      expect(checkCustomFieldValue(definition, null, '2019-12-31', null)).toBe(
        'Custom field Joined (value "2019-12-31"): must not be before 2020-01-01',
      );
      expect(checkCustomFieldValue(definition, null, '2021-01-01T00:30:00+01:00', null)).toBeNull();
      expect(checkCustomFieldValue(definition, null, '2021-01-01T01:30:00+01:00', null)).toBe(
        'Custom field Joined (value "2021-01-01T01:30:00+01:00"): must not be after 2020-12-31T23:59:59Z',
      );
    });
  });

  describe('Text', () => {
    it('keeps within MinLength and MaxLength', () => {
      const definition = text({ MinLength: 2, MaxLength: 4 });
      expect(checkCustomFieldValue(definition, null, 'ab', null)).toBeNull();
      expect(checkCustomFieldValue(definition, null, 'abcd', null)).toBeNull();
      expect(checkCustomFieldValue(definition, null, 'a', null)).toBe(
        'Custom field Nickname (value "a"): must be at least 2 characters long',
      );
      expect(checkCustomFieldValue(definition, null, 'abcde', null)).toBe(
        'Custom field Nickname (value "abcde"): must be at most 4 characters long',
      );
    });

    it('refuses any value longer than 4000 characters, whatever the type', () => {
      const long = 'x'.repeat(4001);
      expect(checkCustomFieldValue(text(), null, long, null)).toContain(
        'must be at most 4000 characters',
      );
      expect(checkCustomFieldValue(text(), null, long, null)).toContain('xxx...): must');
      expect(checkCustomFieldValue(text(), null, 'x'.repeat(4000), null)).toBeNull();
    });

    it('needs the ValidationRegex to match (anywhere, unless anchored)', () => {
      const anchored = text({ ValidationRegex: '^[A-Z]{3}-\\d+$' });
      expect(checkCustomFieldValue(anchored, null, 'ABC-12', null)).toBeNull();
      expect(checkCustomFieldValue(anchored, null, 'abc-12', null)).toBe(
        'Custom field Nickname (value "abc-12"): must match the pattern ^[A-Z]{3}-\\d+$',
      );
      const loose = text({ ValidationRegex: '\\d' });
      expect(checkCustomFieldValue(loose, null, 'a1b', null)).toBeNull();
      expect(checkCustomFieldValue(loose, null, 'abc', null)).toContain('must match the pattern');
    });

    it('does not run a stored regex that may backtrack catastrophically', () => {
      // Run, '^(a+)+$' on 30 a's and a b takes seconds to minutes of event-loop time.
      const value = `${'a'.repeat(30)}b`;
      expect(
        checkCustomFieldValue(text({ ValidationRegex: '^(a+)+$' }), null, value, null),
      ).toContain("cannot be checked: the field's ValidationRegex");
      expect(
        checkCustomFieldValue(text({ ValidationRegex: '^(a+)+$' }), null, value, null),
      ).toContain('may backtrack catastrophically');
    });

    it('reports a stored regex that does not compile instead of throwing', () => {
      expect(checkCustomFieldValue(text({ ValidationRegex: '(' }), null, 'x', null)).toContain(
        "cannot be checked: the field's ValidationRegex cannot be used",
      );
    });
  });

  describe('SelectList', () => {
    it('SingleSelect takes one value of the picklist', () => {
      expect(checkCustomFieldValue(select(), TIERS, 'GOLD', null)).toBeNull();
      expect(checkCustomFieldValue(select(), TIERS, 'gold', null)).toBe(
        'Custom field Tier (value "gold"): "gold" is not an active value of the field\'s picklist',
      );
      expect(checkCustomFieldValue(select(), TIERS, 'GOLD::SILVER', null)).toBe(
        'Custom field Tier (value "GOLD::SILVER"): takes a single value (SingleSelect); several values joined with "::" need a MultiSelect field',
      );
    });

    it('MultiSelect takes several distinct values joined with ::', () => {
      const multi = select({ DisplayType: 'MultiSelect' });
      expect(checkCustomFieldValue(multi, TIERS, 'GOLD', null)).toBeNull();
      expect(checkCustomFieldValue(multi, TIERS, 'GOLD::BRONZE', null)).toBeNull();
      expect(checkCustomFieldValue(multi, TIERS, 'GOLD::PLATINUM', null)).toContain(
        '"PLATINUM" is not an active value',
      );
      expect(checkCustomFieldValue(multi, TIERS, 'GOLD::GOLD', null)).toContain(
        'names "GOLD" more than once',
      );
      expect(checkCustomFieldValue(multi, TIERS, 'GOLD::', null)).toContain(
        'has an empty value between "::" delimiters',
      );
    });

    it('keeps a value already stored even when its option is no longer active', () => {
      const multi = select({ DisplayType: 'MultiSelect' });
      expect(checkCustomFieldValue(multi, ['GOLD'], 'SILVER::GOLD', 'SILVER')).toBeNull();
      expect(checkCustomFieldValue(multi, ['GOLD'], 'BRONZE::GOLD', 'SILVER')).toContain(
        '"BRONZE" is not an active value',
      );
    });

    it('says so when the picklist is missing', () => {
      expect(checkCustomFieldValue(select(), null, 'GOLD', null)).toBe(
        'Custom field Tier (value "GOLD"): cannot be checked: the field\'s picklist was not found',
      );
    });
  });
});

describe('checkCustomFieldValue: update rules', () => {
  const rule = (id: UpdateRule | undefined) => text({ UpdateRuleId: id });

  it('Always (and no rule at all) allows setting, changing and clearing', () => {
    for (const definition of [rule(UpdateRule.Always), rule(undefined)]) {
      expect(checkCustomFieldValue(definition, null, 'a', null)).toBeNull();
      expect(checkCustomFieldValue(definition, null, 'b', 'a')).toBeNull();
      expect(checkCustomFieldValue(definition, null, null, 'a')).toBeNull();
      expect(checkCustomFieldValue(definition, null, '', 'a')).toBeNull();
    }
  });

  it('IfCurrentValueIsBlank allows a value only while the current one is blank', () => {
    const definition = rule(UpdateRule.IfCurrentValueIsBlank);
    expect(checkCustomFieldValue(definition, null, 'a', null)).toBeNull();
    expect(checkCustomFieldValue(definition, null, 'a', '  ')).toBeNull();
    expect(checkCustomFieldValue(definition, null, 'a', 'a')).toBeNull();
    expect(checkCustomFieldValue(definition, null, 'b', 'a')).toBe(
      'Custom field Nickname (value "b"): cannot be changed (current value "a"): its update rule is IfCurrentValueIsBlank (2)',
    );
    expect(checkCustomFieldValue(definition, null, null, 'a')).toBe(
      'Custom field Nickname (value null): cannot be cleared (current value "a"): its update rule is IfCurrentValueIsBlank (2)',
    );
  });

  it('IfNewValueIsNotBlank allows changes but refuses clearing', () => {
    const definition = rule(UpdateRule.IfNewValueIsNotBlank);
    expect(checkCustomFieldValue(definition, null, 'a', null)).toBeNull();
    expect(checkCustomFieldValue(definition, null, 'b', 'a')).toBeNull();
    expect(checkCustomFieldValue(definition, null, null, null)).toBeNull();
    expect(checkCustomFieldValue(definition, null, ' ', 'a')).toBe(
      'Custom field Nickname (value " "): cannot be cleared (current value "a"): its update rule is IfNewValueIsNotBlank (4)',
    );
    expect(checkCustomFieldValue(definition, null, null, 'a')).toContain('cannot be cleared');
  });

  it('Never refuses any change and any removal once a value exists', () => {
    const definition = rule(UpdateRule.Never);
    expect(checkCustomFieldValue(definition, null, 'a', null)).toBeNull();
    expect(checkCustomFieldValue(definition, null, 'a', 'a')).toBeNull();
    expect(checkCustomFieldValue(definition, null, 'b', 'a')).toBe(
      'Custom field Nickname (value "b"): cannot be changed (current value "a"): its update rule is Never (5)',
    );
    expect(checkCustomFieldValue(definition, null, null, 'a')).toBe(
      'Custom field Nickname (value null): cannot be cleared (current value "a"): its update rule is Never (5)',
    );
  });

  it('treats an equal value as no change: numbers numerically, dates as instants, multi-select as sets', () => {
    const never = UpdateRule.Never;
    expect(checkCustomFieldValue(numeric({ UpdateRuleId: never }), null, '1.50', '1.5')).toBeNull();
    expect(checkCustomFieldValue(numeric({ UpdateRuleId: never }), null, '2', '1.5')).toContain(
      'cannot be changed',
    );
    expect(
      checkCustomFieldValue(
        date({ UpdateRuleId: never }),
        null,
        '2024-01-01T01:00:00+01:00',
        '2024-01-01T00:00:00Z',
      ),
    ).toBeNull();
    expect(
      checkCustomFieldValue(
        select({ DisplayType: 'MultiSelect', UpdateRuleId: never }),
        TIERS,
        'SILVER::GOLD',
        'GOLD::SILVER',
      ),
    ).toBeNull();
    expect(
      checkCustomFieldValue(select({ UpdateRuleId: never }), TIERS, 'SILVER', 'GOLD'),
    ).toContain('cannot be changed');
  });

  it('passes an unchanged value even if the definition was tightened since', () => {
    expect(checkCustomFieldValue(numeric({ MaxValue: 5 }), null, '9', '9')).toBeNull();
    expect(checkCustomFieldValue(numeric({ MaxValue: 5 }), null, '10', '9')).toContain(
      'must be at most 5',
    );
  });

  it('checks the type of a changed value after the rule allowed it', () => {
    expect(
      checkCustomFieldValue(
        numeric({ UpdateRuleId: UpdateRule.IfNewValueIsNotBlank }),
        null,
        'x',
        '1',
      ),
    ).toContain('must be a decimal number');
  });
});

describe('checkCustomFieldValue: required fields', () => {
  it('refuses a blank value for a required field, whatever the current value', () => {
    const definition = text({ IsRequired: true });
    expect(checkCustomFieldValue(definition, null, null, null)).toBe(
      'Custom field Nickname (value null): is required and cannot be blank',
    );
    expect(checkCustomFieldValue(definition, null, '', 'a')).toContain('is required');
    expect(checkCustomFieldValue(definition, null, 'a', null)).toBeNull();
  });

  it('does not type-check a blank value of an optional field', () => {
    expect(checkCustomFieldValue(numeric({ MinValue: 3 }), null, '', null)).toBeNull();
    expect(checkCustomFieldValue(select(), null, null, null)).toBeNull();
  });
});

describe('customFieldValueProblem', () => {
  it('answers the bare reason, for definition checks', () => {
    expect(customFieldValueProblem(numeric({ MaxValue: 1 }), null, '2')).toBe('must be at most 1');
    expect(customFieldValueProblem(text(), null, 'fine')).toBeNull();
  });
});
