import { testPreference } from '../harness/configuration';
import { useMergeSuite } from './merge-helpers';

/** POST Profile/{survivor}/Merge: the queued merge, end to end (docs/profile-merge.md). */
describe('Profile merge', () => {
  const suite = useMergeSuite();

  it('combines both profiles into the survivor; the absorbed id answers 404 naming it', async () => {
    const survivor = await suite.create({
      CustomerName: { FirstName: 'Ann', LastName: 'Lee' },
      Emails: [{ EmailAddress: 'ann@example.com', EmailAddressType: 'Personal' }],
      AlternateIds: [{ AlternateIdType: 'CRM', AlternateId: 'crm-s1' }],
      CustomFields: [{ Name: 'Tier', Value: 'Gold' }],
    });
    const absorbed = await suite.create({
      CustomerName: { FirstName: 'A', MiddleName: 'M' },
      Emails: [{ EmailAddress: 'ann.lee@work.example', EmailAddressType: 'Personal' }],
      PhoneNumbers: [{ PhoneNumber: '+1 555 010 0042', PhoneType: 'Mobile' }],
      AlternateIds: [{ AlternateIdType: 'Loyalty', AlternateId: 'loy-a1' }],
      CustomFields: [{ Name: 'c1', Value: 'from-a' }],
      ProfilePreferences: [testPreference(suite.programs.newsletter.solicit)],
    });

    const res = await suite.merge(survivor, { AbsorbedProfileId: absorbed }).expect(202);
    expect(res.body).toEqual({
      ProfileId: survivor,
      AbsorbedProfileId: absorbed,
      Sequence: expect.any(Number),
      UpdateStatus: 'Pending Update',
      SubmittedUtcTime: expect.any(String),
    });
    const profile = await suite.merged(absorbed, survivor);
    expect((await suite.outcome(absorbed, res.body.Sequence)).Status).toBe('Complete');

    // Combined: the survivor's name parts first, the absorbed profile's elements added.
    expect(profile.CustomerName).toMatchObject({
      FirstName: 'Ann',
      LastName: 'Lee',
      MiddleName: 'M',
    });
    expect(profile.Emails.map((e: any) => e.EmailAddress).sort()).toEqual([
      'ann.lee@work.example',
      'ann@example.com',
    ]);
    expect(profile.PhoneNumbers).toHaveLength(1);
    expect(profile.AlternateIds.map((p: any) => p.AlternateId).sort()).toEqual([
      'crm-s1',
      'loy-a1',
    ]);
    expect(profile.CustomFields.map((f: any) => f.Name).sort()).toEqual(['Tier', 'c1']);
    expect(profile.ProfilePreferences).toHaveLength(1);
    expect(profile.ReasonCode).toBe('Duplicate');

    const gone = await suite.api().get(`/Profile/${absorbed}`).expect(404);
    expect(gone.body).toEqual({
      Message: `Profile ${absorbed} was merged into profile ${survivor}`,
      MergedInto: survivor,
    });
    // The absorbed profile's alternate id finds the survivor.
    const byAlt = await suite
      .api()
      .get('/Profile/AlternateId?alternateId=loy-a1&alternateIdType=Loyalty')
      .expect(200);
    expect(byAlt.body.ProfileId).toBe(survivor);
    // Searches find the survivor only.
    const found = await suite
      .api()
      .get('/Profile/Email?emailAddress=ann.lee@work.example')
      .expect(200);
    expect(found.body.map((p: any) => p.ProfileId)).toEqual([survivor]);
    const byPhone = await suite.api().get('/Profile/Phone?phoneNumber=15550100042').expect(200);
    expect(byPhone.body.map((p: any) => p.ProfileId)).toEqual([survivor]);
  });

  it('merges by alternate id, and the same merge again is a no-op answered 200', async () => {
    const survivor = await suite.create({ CustomerName: { FirstName: 'Bo' } });
    const absorbed = await suite.create({
      CustomerName: { FirstName: 'Bob' },
      AlternateIds: [{ AlternateIdType: 'CRM', AlternateId: 'crm-bob' }],
    });
    const res = await suite
      .merge(survivor, { AbsorbedAlternateId: 'crm-bob', AbsorbedAlternateIdType: 'CRM' })
      .expect(202);
    expect(res.body.AbsorbedProfileId).toBe(absorbed);
    await suite.merged(absorbed, survivor);
    const again = await suite.merge(survivor, { AbsorbedProfileId: absorbed }).expect(200);
    expect(again.body).toMatchObject({
      ProfileId: survivor,
      AbsorbedProfileId: absorbed,
      Sequence: res.body.Sequence,
      UpdateStatus: 'Complete',
    });
    // One absorb applied on the survivor, no second merged-into on the absorbed profile.
    const absorbs = (await suite.updates(survivor)).filter((u) => u.Operation === 'absorb');
    expect(absorbs.map((u) => u.Status)).toEqual(['Complete']);
    const steps = (await suite.updates(absorbed)).filter((u) => u.Operation === 'merged-into');
    expect(steps).toHaveLength(1);
  });

  it('refuses a merge the other way round, into a merged profile, or naming the survivor', async () => {
    const a = await suite.create({ CustomerName: { FirstName: 'Cy' } });
    const b = await suite.create({ CustomerName: { FirstName: 'Di' } });
    const c = await suite.create({ CustomerName: { FirstName: 'Ed' } });
    await suite.merge(b, { AbsorbedProfileId: a }).expect(202);
    // A into B accepted: B into A is a cycle, refused at once (the merge record of A).
    const cycle = await suite.merge(a, { AbsorbedProfileId: b }).expect(409);
    expect(cycle.body.Message).toMatch(
      new RegExp(`Profile ${a} (is being merged|was merged) into profile ${b}`),
    );
    await suite.merged(a, b);
    // A merged into B: absorbing A again into C is refused, so is C absorbing into A.
    expect((await suite.merge(c, { AbsorbedProfileId: a }).expect(409)).body.Message).toBe(
      `Profile ${a} was merged into profile ${b}`,
    );
    expect((await suite.merge(a, { AbsorbedProfileId: c }).expect(409)).body.Message).toBe(
      `Profile ${a} was merged into profile ${b}`,
    );
    expect((await suite.merge(c, { AbsorbedProfileId: c }).expect(400)).body.Message).toContain(
      `AbsorbedProfileId (value ${c})`,
    );
    await suite.merge(c, {}).expect(400);
    await suite
      .merge(c, { AbsorbedProfileId: b, AbsorbedAlternateId: 'x', AbsorbedAlternateIdType: 'CRM' })
      .expect(400);
    const bad = await suite.merge(c, { AbsorbedProfileId: 'seven' }).expect(400);
    expect(bad.body.Message).toContain('AbsorbedProfileId');
    await suite.api().post(`/Profile/${c}/Merge`, { AbsorbedProfileId: b }).expect(400);
    await suite.merge(c, { AbsorbedProfileId: 999999 }).expect(404);
    expect((await suite.complete(c)).CustomerName.FirstName).toBe('Ed');
  });
});
