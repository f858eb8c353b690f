import { useImportSuite } from '../bulk/import-helpers';
import { eventually } from '../harness/test-app';

/**
 * A bulk import after a merge (docs/profile-merge.md, "Other features"): a record that names
 * the absorbed profile by one of its alternate ids is applied to the survivor, which holds
 * the claim now; the absorbed profile stays merged and untouched.
 */
describe('Profile merge: bulk import of records naming the absorbed profile', () => {
  const suite = useImportSuite();

  it("applies a record matched by the absorbed profile's alternate id to the survivor", async () => {
    const absorbedId = suite.fresh();
    const create = async (body: object) => {
      const res = await suite.api().post('/Profile', { CustomerType: 'Customer', ...body });
      expect(res.status).toBe(202);
      return res.body.ProfileId as number;
    };
    const survivor = await create({ CustomerName: { FirstName: 'Sur', LastName: 'Vivor' } });
    const absorbed = await create({
      CustomerName: { FirstName: 'Ab', LastName: 'Sorbed' },
      AlternateIds: [{ AlternateIdType: 'CRM', AlternateId: absorbedId }],
    });
    expect((await suite.applied(absorbedId)).ProfileId).toBe(absorbed);
    const merged = await suite
      .api()
      .post(`/Profile/${survivor}/Merge`, { AbsorbedProfileId: absorbed, ReasonCode: 'Duplicate' });
    expect(merged.status).toBe(202);
    await eventually(async () => {
      const res = await suite.api().get(`/Profile/${absorbed}`);
      return res.status === 404 && res.body.MergedInto === survivor ? true : undefined;
    });
    // The claim moved with the merge: the CRM id finds the survivor.
    expect((await suite.applied(absorbedId)).ProfileId).toBe(survivor);

    const token = await suite.newImport();
    await suite
      .stage(token, [suite.record(absorbedId, { CustomerName: { FirstName: 'Imported' } })])
      .expect(200);
    await suite.execute(token).expect(202);
    const ended = await suite.ended(token);
    expect(ended.Status).toBe('Completed');

    const profile = await eventually(async () => {
      const found = await suite.applied(absorbedId);
      return found.CustomerName?.FirstName === 'Imported' ? found : undefined;
    });
    expect(profile).toMatchObject({
      ProfileId: survivor,
      CustomerName: { FirstName: 'Imported', LastName: 'Vivor' },
    });
    const stored = await suite.stored(absorbed);
    expect(stored).toMatchObject({ state: 'merged', mergedInto: survivor });
    expect(stored?.data?.CustomerName?.FirstName).toBe('Ab');
  });
});
