/*
 * Custom field update rules. The sources disagree: an older enumeration has Always=1,
 * IfCurrentValueIsBlank=2, IfNewValueIsBlank=3, IfNewValueIsNotBlank=4; the v4 pages name
 * four rules (Always, If Current Value Is Blank, If New Value Is Not Blank, Never) and the
 * v4 text-field page uses the ids 1, 2, 4 and 5. We keep the v4 ids, so ids stored by
 * existing clients keep their meaning, and leave 3 unused.
 */

export enum UpdateRule {
  Always = 1,
  IfCurrentValueIsBlank = 2,
  IfNewValueIsNotBlank = 4,
  Never = 5,
}

export interface UpdateRuleInfo {
  Id: UpdateRule;
  Name: keyof typeof UpdateRule;
  Description: string;
}

export const UPDATE_RULES: UpdateRuleInfo[] = [
  {
    Id: UpdateRule.Always,
    Name: 'Always',
    Description: 'The default: the value may be set, changed and cleared at any time.',
  },
  {
    Id: UpdateRule.IfCurrentValueIsBlank,
    Name: 'IfCurrentValueIsBlank',
    Description:
      'A value may be set only while the current value is blank; once set it cannot be changed or cleared.',
  },
  {
    Id: UpdateRule.IfNewValueIsNotBlank,
    Name: 'IfNewValueIsNotBlank',
    Description: 'The value may be changed to any non-blank value, but never cleared.',
  },
  {
    Id: UpdateRule.Never,
    Name: 'Never',
    Description: 'Once a value is added it can be neither updated nor removed.',
  },
];

export const UPDATE_RULE_IDS: number[] = UPDATE_RULES.map((rule) => rule.Id);

export function updateRuleName(id: number | null | undefined): string {
  const rule = UPDATE_RULES.find((candidate) => candidate.Id === (id ?? UpdateRule.Always));
  return rule ? `${rule.Name} (${rule.Id})` : `${id}`;
}
