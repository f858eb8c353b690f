import { writerView } from './profile-view';
import { hiddenFrom, scopeViolations } from './profile-scope.rules';

describe('profile scope rules', () => {
  const view = writerView({
    programs: ['News'],
    consentTypes: ['Marketing'],
    customFields: ['Tier'],
    consents: 'write',
    preferences: 'write',
  });

  it('names every element outside the scope, nested ones with their path', () => {
    const problems = scopeViolations(
      {
        CustomFields: [
          { Name: 'tier', Value: 'x' },
          { Name: 'Hidden', Value: 'y' },
        ],
        Emails: [
          {
            EmailAddress: 'a@b.c',
            Consents: [{ ConsentType: 'Terms' }],
            EmailPreferences: [
              { ProgramId: 'news', ConsentAssociations: [{ ConsentType: 'Terms' }] },
              { ProgramId: 'Offers' },
            ],
          },
        ],
      },
      view,
      undefined,
    );
    expect(problems).toEqual([
      `CustomFields[1].Name (value "Hidden") is outside your user group's permissions`,
      `Emails[0].EmailPreferences[0].ConsentAssociations[0].ConsentType (value "Terms") is outside your user group's permissions`,
      `Emails[0].EmailPreferences[1].ProgramId (value "Offers") is outside your user group's permissions`,
      `Emails[0].Consents[0].ConsentType (value "Terms") is outside your user group's permissions`,
    ]);
  });

  it('an element repeated exactly as stored is not a write; a changed one is', () => {
    const readOnly = writerView({ consents: 'read', preferences: 'write' });
    const stored = { Consents: [{ ConsentType: 'Terms', ConsentStatus: 1, Edited: { a: 1 } }] };
    expect(
      scopeViolations({ Consents: [{ ConsentType: 'Terms', ConsentStatus: 1 }] }, readOnly, stored),
    ).toEqual([]);
    expect(
      scopeViolations({ Consents: [{ ConsentType: 'Terms', ConsentStatus: 3 }] }, readOnly, stored),
    ).toEqual(['Consents[0]: your user group has no write access to consents']);
  });

  it('an unrestricted writer may write everything', () => {
    expect(
      scopeViolations({ CustomFields: [{ Name: 'Any' }] }, writerView(undefined), undefined),
    ).toEqual([]);
  });

  it('hiddenFrom selects what an overwrite by the writer keeps', () => {
    expect(hiddenFrom(view, 'CustomFields', { Name: 'Hidden' })).toBe(true);
    expect(hiddenFrom(view, 'CustomFields', { Name: 'TIER' })).toBe(false);
    expect(hiddenFrom(view, 'PhonePreferences', { ProgramId: 'Offers' })).toBe(true);
    expect(hiddenFrom(view, 'ConsentAssociations', { ConsentType: 'Marketing' })).toBe(false);
    expect(hiddenFrom(view, 'Emails', { EmailAddress: 'x' })).toBe(false);
  });
});
