import { type Permission, TenantAdminService } from '@app/auth';
import { fetchBearer } from '../harness/session';
import { useMergeSuite } from './merge-helpers';

/**
 * Who may merge (docs/profile-merge.md, "Permissions"): write on the `merge` area and on
 * profiles; a group scoped to some consent types, programs or custom fields merges only
 * profiles that hold nothing outside its scope (403 naming the first such item).
 */
describe('Profile merge: permissions', () => {
  const suite = useMergeSuite();
  const bearers: Record<string, string> = {};

  beforeAll(async () => {
    const admin = suite.app.api.get(TenantAdminService);
    const { clientId } = suite.tenant;
    const write = (...areas: Permission['area'][]): Permission[] =>
      areas.map((area) => ({ area, access: 'write' }));
    const groups: [string, Permission[], object?][] = [
      ['Editors', write('profiles', 'consents', 'preferences', 'history')],
      ['Mergers', write('profiles', 'merge', 'consents', 'preferences', 'history')],
      ['Merge only', write('merge')],
      [
        'Terms desk',
        write('profiles', 'merge', 'consents', 'preferences', 'history'),
        { consentTypes: ['Terms'] },
      ],
    ];
    for (const [name, permissions, scope] of groups) {
      await admin.defineUserGroup(clientId, name, permissions, scope);
      const userId = name.toLowerCase().replace(/ /g, '-');
      await admin.addUser({ clientId, userId, group: name });
      bearers[name] = await fetchBearer(suite.app, suite.tenant, userId);
    }
  });

  const as = (group: string) => suite.api(bearers[group]);
  const terms = { ConsentType: 'Terms', ConsentVersion: '1.0', ConsentStatus: 1 };
  const marketing = { ConsentType: 'Marketing', ConsentVersion: '1.0', ConsentStatus: 1 };

  it('needs write on merge and on profiles', async () => {
    const survivor = await suite.create({ CustomerName: { FirstName: 'P1' } });
    const absorbed = await suite.create({ CustomerName: { FirstName: 'P2' } });
    await suite.merge(survivor, { AbsorbedProfileId: absorbed }, as('Editors')).expect(403);
    const onlyMerge = await suite
      .merge(survivor, { AbsorbedProfileId: absorbed }, as('Merge only'))
      .expect(403);
    expect(onlyMerge.body.Message).toBe('The user group lacks write permission on profiles');
    await suite.merge(survivor, { AbsorbedProfileId: absorbed }, as('Mergers')).expect(202);
    await suite.merged(absorbed, survivor);
  });

  it('lets a scoped group merge only profiles holding nothing outside its scope', async () => {
    const survivor = await suite.create({ Consents: [terms] });
    const outside = await suite.create({ Consents: [marketing] });
    const refused = await suite
      .merge(survivor, { AbsorbedProfileId: outside }, as('Terms desk'))
      .expect(403);
    expect(refused.body.Message).toContain(`Profile ${outside}:`);
    expect(refused.body.Message).toContain('Marketing');
    // Nothing was queued: the profile answers as before.
    expect((await suite.complete(outside)).Consents.map((c: any) => c.ConsentType)).toEqual([
      'Marketing',
    ]);

    const inside = await suite.create({ Consents: [terms], CustomerName: { FirstName: 'In' } });
    await suite.merge(survivor, { AbsorbedProfileId: inside }, as('Terms desk')).expect(202);
    const merged = await suite.merged(inside, survivor);
    expect(merged.CustomerName.FirstName).toBe('In');
  });
});
