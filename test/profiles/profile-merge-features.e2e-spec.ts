import { getConnectionToken } from '@nestjs/mongoose';
import type { Connection } from 'mongoose';
import { profileKey } from '../../libs/profiles/src/keys';
import { testPreference } from '../harness/configuration';
import { eventually } from '../harness/test-app';
import { countsSettle } from '../reports/report-helpers';
import { useMergeSuite } from './merge-helpers';

/**
 * Other features on merged profiles (docs/profile-merge.md, "Other features"): the contact
 * decision, the data-subject export and erasure, the reports' counts.
 */
describe('Profile merge: contact decisions, export and erasure', () => {
  const suite = useMergeSuite();
  const decision = (query: Record<string, string | number>) =>
    suite.api().get(`/ContactDecision?${new URLSearchParams(query as Record<string, string>)}`);

  it('decides on the survivor only: a bare email counts the person once, the absorbed id is 404', async () => {
    const { newsletter } = suite.programs;
    const email = (optIn: boolean) => ({
      Emails: [
        {
          EmailAddress: 'same.person@example.com',
          EmailPreferences: [testPreference(newsletter.email, { PreferenceType: optIn ? 1 : 2 })],
        },
      ],
    });
    const survivor = await suite.create(email(true));
    // The absorbed profile's opt-out is newer than the survivor's opt-in: it wins (row P7).
    const absorbed = await suite.create({
      ...email(false),
      AlternateIds: [{ AlternateIdType: 'CRM', AlternateId: 'dec-merge-1' }],
    });
    const news = { channelId: 'Email', programId: newsletter.email.ProgramId };
    const before = (
      await decision({ emailAddress: 'same.person@example.com', ...news }).expect(200)
    ).body;
    expect(before.ProfileIds.sort()).toEqual([survivor, absorbed].sort());

    await suite.merge(survivor, { AbsorbedProfileId: absorbed }).expect(202);
    await suite.merged(absorbed, survivor);
    const after = (await decision({ emailAddress: 'same.person@example.com', ...news }).expect(200))
      .body;
    expect(after).toMatchObject({ ProfileIds: [survivor], Allowed: false });
    const byAlt = (
      await decision({ alternateIdType: 'CRM', alternateId: 'dec-merge-1', ...news }).expect(200)
    ).body;
    expect(byAlt.ProfileIds).toEqual([survivor]);
    // The absorbed id's 404 names the survivor, as GET's does; in a batch, the answer's reason.
    const gone = (await decision({ profileId: absorbed, ...news }).expect(404)).body;
    expect(gone.MergedInto).toBe(survivor);
    expect(gone.Message).toBe(`Profile ${absorbed} was merged into profile ${survivor}`);
    const batch = (
      await suite
        .api()
        .post('/ContactDecisions', {
          Questions: [{ ProfileId: absorbed, ChannelId: 'Email', ProgramId: news.programId }],
        })
        .expect(200)
    ).body;
    expect(batch.Decisions[0]).toMatchObject({ Allowed: false, ProfileIds: [] });
    expect(batch.Decisions[0].Reasons).toEqual([
      expect.objectContaining({
        Code: 'ProfileNotFound',
        Message: `Profile ${absorbed} was merged into profile ${survivor}`,
      }),
    ]);
  });

  it("exports the survivor with the absorbed profile's history, and erases both", async () => {
    const survivor = await suite.create({ CustomerName: { FirstName: 'Ex', LastName: 'Port' } });
    const absorbed = await suite.create({
      CustomerName: { FirstName: 'Ab', LastName: 'Sorbed' },
      Emails: [{ EmailAddress: 'erase.me@example.com', EmailAddressType: 'Personal' }],
    });
    await suite.merge(survivor, { AbsorbedProfileId: absorbed }).expect(202);
    await suite.merged(absorbed, survivor);

    const exported = JSON.parse(
      (await suite.api().get(`/Profile/${survivor}/Export`).expect(200)).text,
    );
    expect(exported.Profile.Emails.map((e: any) => e.EmailAddress)).toEqual([
      'erase.me@example.com',
    ]);
    expect(exported.History.some((entry: any) => entry.category === 'merge')).toBe(true);
    expect(exported.Absorbed).toHaveLength(1);
    expect(exported.Absorbed[0]).toMatchObject({ ProfileId: absorbed });
    expect(
      exported.Absorbed[0].History.map(
        (entry: any) => entry.snapshot?.CustomerName?.LastName,
      ).filter(Boolean),
    ).toEqual(['Sorbed']);
    // The absorbed id exports nothing of its own: 404 naming the survivor.
    expect((await suite.api().get(`/Profile/${absorbed}/Export`).expect(404)).body.MergedInto).toBe(
      survivor,
    );

    await suite
      .api()
      .post(`/Profile/${survivor}/Erasure`, { ReasonCode: 'GDPR-ART17' })
      .expect(202);
    await eventually(async () =>
      (await suite.api().get(`/Profile/${survivor}`)).status === 404 ? true : undefined,
    );
    // The absorbed profile's erasure was queued too (first; writes of two profiles apply in
    // no promised order, so it is waited for): it is no longer merged (no MergedInto), and its
    // email is found nowhere.
    const gone = await eventually(async () => {
      const res = await suite.api().get(`/Profile/${absorbed}`).expect(404);
      return res.body.MergedInto === undefined ? res : undefined;
    });
    expect(gone.body.Message).toEqual(expect.any(String));
    const search = await suite
      .api()
      .get('/Profile/Email?emailAddress=erase.me@example.com')
      .expect(200);
    expect(search.body).toEqual([]);
    // GET answers 404 from the erasure's first step, before its save commits it (and the
    // counts follow the save): waited for, so that the next test's counts start settled.
    const profiles = suite.app.api.get<Connection>(getConnectionToken()).collection('profiles');
    for (const id of [survivor, absorbed]) {
      await eventually(async () => {
        const stored = await profiles.findOne({
          _id: profileKey(suite.tenant.clientId, id),
        } as object);
        return stored?.state === 'deleted' ? true : undefined;
      });
    }
  });

  it('counts the person once in the reports: the absorbed profile leaves the counts, its consents count on the survivor', async () => {
    const { app, tenant } = suite;
    const survivor = await suite.create({ Consents: [{ ConsentType: 'Terms', ConsentStatus: 1 }] });
    const absorbed = await suite.create({
      CustomerType: 'Prospect',
      Consents: [{ ConsentType: 'Marketing', ConsentStatus: 1 }],
    });
    const counts = async () =>
      (await suite.api().get('/Reports/Counts').expect(200)).body as {
        Profiles: { CustomerType: string; Active: number }[];
        Consents: { ConsentType: string; Level: string; Status: string; Count: number }[];
      };
    await countsSettle(app, tenant.clientId);
    const profilesOf = (body: Awaited<ReturnType<typeof counts>>) =>
      Object.fromEntries(body.Profiles.map((row) => [row.CustomerType, row.Active]));
    const granted = (body: Awaited<ReturnType<typeof counts>>, type: string) =>
      body.Consents.find(
        (row) => row.ConsentType === type && row.Level === 'Profile' && row.Status === 'Granted',
      )?.Count ?? 0;
    const before = await counts();

    await suite.merge(survivor, { AbsorbedProfileId: absorbed }).expect(202);
    await suite.merged(absorbed, survivor);
    // The kept counts equal a recount of the stored profiles (the merged one counts nothing).
    await countsSettle(app, tenant.clientId);
    const after = await counts();
    expect(profilesOf(after).Prospect ?? 0).toBe((profilesOf(before).Prospect ?? 0) - 1);
    expect(profilesOf(after).Customer).toBe(profilesOf(before).Customer);
    // The absorbed Marketing grant now counts once, on the survivor; Terms unchanged.
    expect(granted(after, 'Marketing')).toBe(granted(before, 'Marketing'));
    expect(granted(after, 'Terms')).toBe(granted(before, 'Terms'));
    const merged = await suite.complete(survivor);
    expect(
      merged.Consents.map((consent: { ConsentType: string }) => consent.ConsentType).sort(),
    ).toEqual(['Marketing', 'Terms']);
  });
});
