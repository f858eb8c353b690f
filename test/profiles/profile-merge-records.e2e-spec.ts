import { getConnectionToken } from '@nestjs/mongoose';
import type { Connection } from 'mongoose';
import { testPreference } from '../harness/configuration';
import { useMergeSuite } from './merge-helpers';

/**
 * What a merge leaves readable (docs/profile-merge.md, "History and receipts", "Events"):
 * the survivor's history with the merge and the absorbed profile's entries marked with
 * their origin, the `profile.merged` event, and a receipt chain that still verifies.
 */
describe('Profile merge: history, events and receipts', () => {
  const suite = useMergeSuite();
  let survivor: number;
  let absorbed: number;

  beforeAll(async () => {
    const { newsletter } = suite.programs;
    survivor = await suite.create({
      CustomerName: { FirstName: 'Sue', LastName: 'Vivor' },
      Consents: [{ ConsentType: 'Terms', ConsentVersion: '1.0', ConsentStatus: 1 }],
    });
    absorbed = await suite.create({
      CustomerName: { FirstName: 'Abe', LastName: 'Sorbed' },
      Consents: [{ ConsentType: 'Marketing', ConsentVersion: '1.0', ConsentStatus: 1 }],
      ProfilePreferences: [testPreference(newsletter.solicit)],
    });
    // A second write of the absorbed profile: its history has two standard-field entries.
    await suite
      .api()
      .post(`/Profile/${absorbed}`, { CustomerName: { LastName: 'Sorbed-2' } })
      .expect(202);
    await suite.complete(absorbed, (p) => p.CustomerName.LastName === 'Sorbed-2');
    await suite
      .merge(survivor, { AbsorbedProfileId: absorbed, ReasonCode: 'SamePerson' })
      .expect(202);
    await suite.merged(absorbed, survivor);
  });

  it("lists the merge and, after the survivor's own entries, the absorbed profile's marked with their origin", async () => {
    const history = (
      await suite.api().get(`/Profile/${survivor}/History/StandardFields`).expect(200)
    ).body;
    const own = history.filter((entry: any) => !entry.Origin);
    const merge = own.find((entry: any) => entry.Merge);
    expect(merge.Merge).toEqual({
      AbsorbedProfileId: absorbed,
      ReasonCode: 'SamePerson',
      MergedBy: expect.any(String),
      MergedAt: expect.any(String),
    });
    expect(merge.ProfileId).toBe(survivor);
    const origins = history.filter((entry: any) => entry.Origin);
    expect(origins.map((entry: any) => entry.CustomerName.LastName)).toEqual([
      'Sorbed',
      'Sorbed-2',
    ]);
    for (const entry of origins)
      expect(entry).toMatchObject({ ProfileId: survivor, Origin: { ProfileId: absorbed } });
    // The absorbed profile's entries come after every entry of the survivor.
    expect(history.indexOf(origins[0])).toBe(own.length);

    const consents = (await suite.api().get(`/Profile/${survivor}/History/Consents`).expect(200))
      .body;
    expect(
      consents
        .filter((e: any) => e.Origin)
        .flatMap((e: any) => e.Consents.map((c: any) => c.ConsentType)),
    ).toEqual(['Marketing']);
    // The merge added Marketing to the survivor: an entry of its own, without origin (the
    // consents history is in the consents' own order).
    expect(
      consents
        .filter((e: any) => !e.Origin)
        .flatMap((e: any) => e.Consents.map((c: any) => c.ConsentType))
        .sort(),
    ).toEqual(['Marketing', 'Terms']);

    const gone = await suite.api().get(`/Profile/${absorbed}/History/StandardFields`).expect(404);
    expect(gone.body.MergedInto).toBe(survivor);
  });

  it('records profile.merged with both ids on the survivor', async () => {
    const page = (await suite.api().get(`/Profile/${survivor}/Events`).expect(200)).body;
    const merged = page.Events.filter((event: any) => event.EventType === 'profile.merged');
    expect(merged).toHaveLength(1);
    expect(merged[0].Data).toEqual({
      ProfileId: survivor,
      AbsorbedProfileId: absorbed,
      ReasonCode: 'SamePerson',
      MergedAt: expect.any(String),
    });
    // It comes after the events of what the merge changed on the survivor, in one write.
    const types = page.Events.map((event: any) => event.EventType);
    expect(types.slice(-1)).toEqual(['profile.merged']);
    expect(types).toEqual(expect.arrayContaining(['profile.updated', 'consent.added']));
  });

  it("verifies the survivor's receipt chain, which links the merge, and the absorbed profile's", async () => {
    const chain = (await suite.api().get(`/Profile/${survivor}/ConsentChain`).expect(200)).body;
    expect(chain.Ok).toBe(true);
    // Terms (create), Marketing and the newsletter preference (the merge), and the merge.
    expect(chain.Chained).toBe(4);
    // The absorbed profile's own chain (Marketing, the newsletter) ends at the head the
    // merge entry hashed.
    expect(chain.Absorbed).toEqual([
      {
        ProfileId: absorbed,
        AbsorbedBy: survivor,
        Ok: true,
        Chained: 2,
        Unchained: 0,
        Head: expect.stringMatching(/^[0-9a-f]{64}$/),
        AbsorbedHead: chain.Absorbed[0].Head,
        Problems: [],
      },
    ]);
    const receipts = (await suite.api().get(`/Profile/${survivor}/ConsentReceipts`).expect(200))
      .body;
    expect(receipts.Entries.length).toBeGreaterThanOrEqual(2);
  });

  // Last: it changes the absorbed profile's stored history.
  it("finds an absorbed profile's entry changed in the engine from the survivor's chain check", async () => {
    const pages = suite.app.api.get<Connection>(getConnectionToken()).collection('profile_history');
    const _id = `${suite.tenant.clientId}|${absorbed}|p0`;
    const page = await pages.findOne({ _id } as object);
    const entries = (page!.entries as string[]).map((text) => JSON.parse(text));
    const marketing = entries.findIndex((entry) => entry.category === 'consent');
    entries[marketing].snapshot.ConsentStatus = 0;
    await pages.updateOne({ _id } as object, {
      $set: { entries: entries.map((entry) => JSON.stringify(entry)) },
    });
    const chain = (await suite.api().get(`/Profile/${survivor}/ConsentChain`).expect(200)).body;
    expect(chain.Ok).toBe(false);
    // The survivor's own entries are intact; the absorbed profile's changed one is named.
    expect(chain.Problems).toEqual([]);
    expect(chain.Absorbed[0]).toMatchObject({ ProfileId: absorbed, Ok: false });
    expect(chain.Absorbed[0].Problems).toEqual([
      expect.objectContaining({
        EntryId: `${entries[marketing].seq}.${entries[marketing].n}`,
        Reason: 'content-hash-mismatch',
      }),
    ]);
  });
});
