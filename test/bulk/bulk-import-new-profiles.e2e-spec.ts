import { getConnectionToken } from '@nestjs/mongoose';
import type { Connection } from 'mongoose';
import request from 'supertest';
import { eventually } from '../harness/test-app';
import { useImportSuite } from './import-helpers';

/**
 * Bulk import, Execute (docs/bulk.md, step 2a): a batch's new profiles made by the batch
 * path are the profiles the Data API makes (data, history, search, claims, events, a
 * do-not-contact mark); a held pair merges into its holder; the next chunk built ahead.
 * Real engine and Redis, one worker.
 */
describe('Bulk import: Execute, new profiles by the batch path', () => {
  const suite = useImportSuite();
  const { v4, fresh, record, newImport, stage, execute, ended, applied, stored } = suite;

  it('a record whose pair a profile holds merges into it, and the profile the batch saved for it first is gone', async () => {
    // The batch saves every first record as a new profile, then claims the pairs: a held
    // pair sends the record into its holder and removes the profile saved for it.
    const [held, heldToo, created] = [fresh(), fresh(), fresh()];
    for (const value of [held, heldToo]) {
      await request(suite.app.http)
        .post(`${v4()}/Profile`)
        .set('Authorization', suite.auth)
        .send(record(value, { CustomerName: { FirstName: 'Old', LastName: 'Kept' } }))
        .expect(202);
      await applied(value);
    }
    const token = await newImport();
    await stage(token, [
      record(held, { CustomerName: { FirstName: 'New' } }),
      record(created),
      record(heldToo, { CustomerName: { FirstName: 'Newer' } }),
    ]).expect(200);
    await execute(token).expect(202);
    expect(await ended(token)).toMatchObject({ Status: 'Completed', Processed: 3, NotHonored: 0 });
    const [first, second, third] = [
      await applied(held),
      await applied(created),
      await applied(heldToo),
    ];
    expect(first.CustomerName).toMatchObject({ FirstName: 'New', LastName: 'Kept' });
    expect(third.CustomerName).toMatchObject({ FirstName: 'Newer', LastName: 'Kept' });
    expect(second.ProfileId).toBeGreaterThan(third.ProfileId);
    // The ids reserved beside the created one were saved, then removed: no profile, no
    // claim, no history.
    for (const id of [second.ProfileId - 1, second.ProfileId + 1]) {
      expect(await stored(id)).toBeNull();
      await request(suite.app.http)
        .get(`${v4()}/Profile/${id}`)
        .set('Authorization', suite.auth)
        .expect(404);
      const pages = await suite.app.api
        .get<Connection>(getConnectionToken())
        .collection('profile_history')
        .findOne({ _id: `${suite.tenant.clientId}|${id}|p0` } as object);
      expect(pages).toBeNull();
    }
    const history = await request(suite.app.http)
      .get(`${v4()}/Profile/${first.ProfileId}/History/StandardFields`)
      .set('Authorization', suite.auth)
      .expect(200);
    expect(JSON.stringify(history.body)).toContain('New');
  });

  it("a batch's new profiles are the profiles the Data API makes of the same body: data, history, search, claims, tags", async () => {
    const [imported, direct] = [fresh(), fresh()];
    const body = (id: string) =>
      record(id, {
        Emails: [{ EmailAddress: `${id}@example.com`, EmailAddressType: 'Personal' }],
        ProfileTags: [{ Name: 'batch-made' }],
      });
    await request(suite.app.http)
      .post(`${v4()}/Profile/AlternateId?alternateIdType=CRM&alternateId=${direct}`)
      .set('Authorization', suite.auth)
      .send(body(direct))
      .expect(202);
    const token = await newImport();
    await stage(token, [body(imported)]).expect(200);
    await execute(token).expect(202);
    expect(await ended(token)).toMatchObject({ Status: 'Completed', Processed: 1 });

    const mine = await applied(imported);
    const theirs = await applied(direct);
    expect(mine.Emails).toHaveLength(1);
    expect(comparable(mine, imported)).toEqual(comparable(theirs, direct));
    for (const category of [
      'StandardFields',
      'ContactElements',
      'CustomFields',
      'Preferences',
      'Consents',
    ]) {
      const history = async (profileId: number, id: string) =>
        comparable(
          (
            await request(suite.app.http)
              .get(`${v4()}/Profile/${profileId}/History/${category}`)
              .set('Authorization', suite.auth)
              .expect(200)
          ).body,
          id,
        );
      const entries = await history(mine.ProfileId, imported);
      expect(entries).toEqual(await history(theirs.ProfileId, direct));
      if (category === 'ContactElements')
        expect(JSON.stringify(entries)).toContain('ID@example.com');
    }
    const standardFields = async () =>
      (
        await request(suite.app.http)
          .get(`${v4()}/Profile/${mine.ProfileId}/History/StandardFields`)
          .set('Authorization', suite.auth)
          .expect(200)
      ).body as Array<{ CustomerName?: { FirstName?: string } }>;
    const importedHistory = await standardFields();
    // Found by its email (the search keys), and its claim holds: an upsert merges into it.
    const found = await request(suite.app.http)
      .get(`${v4()}/Profile/Email?emailAddress=${imported}@example.com`)
      .set('Authorization', suite.auth)
      .expect(200);
    expect(JSON.stringify(found.body)).toContain(`"ProfileId":${mine.ProfileId}`);
    const merged = await request(suite.app.http)
      .post(`${v4()}/Profile/AlternateId?alternateIdType=CRM&alternateId=${imported}`)
      .set('Authorization', suite.auth)
      .send({ CustomerName: { FirstName: 'Later' } })
      .expect(202);
    expect(merged.body.ProfileId).toBe(mine.ProfileId);
    expect((await applied(imported)).CustomerName.FirstName).toBe('Later');
    // The write appended its entry after the page the import stored (by its saved count,
    // without reading the page): the import's entries stay as they were.
    const later = await standardFields();
    expect(later.slice(0, -1)).toEqual(importedHistory);
    expect(later[later.length - 1].CustomerName?.FirstName).toBe('Later');
  });

  it('alternate ids an import stores inactive are found with matchInactive=true only, as the Data API finds them', async () => {
    const [created, held, newLoyalty, oldLoyalty] = [fresh(), fresh(), fresh(), fresh()];
    // An existing profile holding an active Loyalty id, which the import deactivates.
    const first = await newImport();
    await stage(first, [
      record(held, {
        AlternateIds: [
          { AlternateIdType: 'CRM', AlternateId: held },
          { AlternateIdType: 'Loyalty', AlternateId: oldLoyalty },
        ],
      }),
    ]).expect(200);
    await execute(first).expect(202);
    await ended(first);
    const token = await newImport();
    await stage(token, [
      // A new profile (the batch path) with an inactive Loyalty id.
      record(created, {
        AlternateIds: [
          { AlternateIdType: 'CRM', AlternateId: created },
          { AlternateIdType: 'Loyalty', AlternateId: newLoyalty, IsActive: false },
        ],
      }),
      // A merge (the ordinary path) deactivating the held profile's Loyalty id.
      record(held, {
        AlternateIds: [
          { AlternateIdType: 'CRM', AlternateId: held },
          { AlternateIdType: 'Loyalty', AlternateId: oldLoyalty, IsActive: false },
        ],
      }),
    ]).expect(200);
    await execute(token).expect(202);
    expect(await ended(token)).toMatchObject({ Status: 'Completed', Processed: 2 });
    const loyalty = (value: string, query = '') =>
      request(suite.app.http)
        .get(`${v4()}/Profile/AlternateId?alternateIdType=Loyalty&alternateId=${value}${query}`)
        .set('Authorization', suite.auth);
    const createdId = (await applied(created)).ProfileId;
    const heldId = (await applied(held)).ProfileId;
    for (const [value, profileId] of [
      [newLoyalty, createdId],
      [oldLoyalty, heldId],
    ] as const) {
      await loyalty(value).expect(404);
      expect((await loyalty(value, '&matchInactive=true').expect(200)).body.ProfileId).toBe(
        profileId,
      );
    }
  });

  it("a new profile's events, and a merge's, as after Data API writes (docs/events.md)", async () => {
    const id = fresh();
    const first = await newImport();
    await stage(first, [record(id)]).expect(200);
    await execute(first).expect(202);
    await ended(first);
    const profile = await applied(id);
    const events = async () =>
      (
        await request(suite.app.http)
          .get(`${v4()}/Profile/${profile.ProfileId}/Events`)
          .set('Authorization', suite.auth)
          .expect(200)
      ).body.Events as Array<Record<string, any>>;
    const created = await events();
    expect(created.map((event) => [event.EventId, event.EventType])).toEqual([
      [`${profile.ProfileId}-1-0`, 'profile.created'],
      [`${profile.ProfileId}-1-1`, 'contacts.alternateid.added'],
    ]);
    expect(created[0].Data).toMatchObject({
      ProfileId: profile.ProfileId,
      CustomerName: { FirstName: 'Ann' },
    });
    // A second import of the same id: a merge, the ordinary way.
    const second = await newImport();
    await stage(second, [record(id, { CustomerName: { FirstName: 'Bea' } })]).expect(200);
    await execute(second).expect(202);
    await ended(second);
    const merged = await eventually(async () => {
      const all = await events();
      return all.length > 2 ? all : undefined;
    });
    expect(merged.slice(2).map((event) => event.EventType)).toEqual([
      'profile.updated',
      'standardfield.firstname.updated',
    ]);
    expect(merged[3]).toMatchObject({
      Data: { FirstName: 'Bea' },
      PreviousData: { FirstName: 'Ann' },
    });
  });

  it('a new profile whose email is on a do-not-contact list gets the mark, as after a Data API create', async () => {
    const id = fresh();
    const list = await request(suite.app.http)
      .post(`${v4()}/DoNotContactLists`)
      .set('Authorization', suite.auth)
      .send({ Name: `Complaints ${id}`, ListType: 'Email' })
      .expect(201);
    await request(suite.app.http)
      .post(`${v4()}/DoNotContactLists/${list.body.ListId}/Entries`)
      .set('Authorization', suite.auth)
      .send({ Entries: [{ Value: `${id}@example.com`, Reason_Code: 'Complaint' }] })
      .expect(200);
    const token = await newImport();
    await stage(token, [
      record(id, { Emails: [{ EmailAddress: `${id}@example.com`, EmailAddressType: 'Personal' }] }),
    ]).expect(200);
    await execute(token).expect(202);
    await ended(token);
    const marked = await eventually(async () => {
      const profile = await applied(id);
      const preferences = (profile.Emails[0].EmailPreferences ?? []) as { FilterId: unknown }[];
      return preferences.some((p) => p.FilterId === suite.programs.dnc.email.FilterId)
        ? profile
        : undefined;
    });
    expect(marked.Emails[0].EmailAddress).toBe(`${id}@example.com`);
  });

  it("a run builds each next chunk's new profiles while it applies a chunk: the same outcome as record order", async () => {
    const [a, b, c, d, heldId] = [fresh(), fresh(), fresh(), fresh(), fresh()];
    // A profile holding heldId already (a first import).
    const first = await newImport();
    await stage(first, [record(heldId)]).expect(200);
    await execute(first).expect(202);
    await ended(first);
    const holder = await applied(heldId);
    const token = await newImport();
    // Four stages: four chunks. Chunk 2 names a again (built ahead as new, it must merge
    // into the profile chunk 1 made) and chunk 3 a pair a profile held before the import.
    await stage(token, [record(a), record(b)]).expect(200);
    await stage(token, [record(c), record(a, { ProfileTags: [{ Name: 'again' }] })]).expect(200);
    await stage(token, [record(heldId, { ProfileTags: [{ Name: 'held' }] })]).expect(200);
    await stage(token, [record(d)]).expect(200);
    await execute(token).expect(202);
    expect(await ended(token)).toMatchObject({ Status: 'Completed', Processed: 6, Pending: 0 });
    const profiles = new Map<string, Record<string, any>>();
    for (const id of [a, b, c, d, heldId]) profiles.set(id, await applied(id));
    expect(profiles.get(a)!.ProfileTags.map((tag: { Name: string }) => tag.Name)).toEqual([
      'again',
    ]);
    expect(profiles.get(heldId)!.ProfileId).toBe(holder.ProfileId);
    expect(profiles.get(heldId)!.ProfileTags.map((tag: { Name: string }) => tag.Name)).toEqual([
      'held',
    ]);
    const writes = suite.app.api.get<Connection>(getConnectionToken()).collection('profile_writes');
    for (const id of [b, c, d]) {
      // Created by the fast path (no write record), once.
      const doc = (await stored(profiles.get(id)!.ProfileId))!;
      expect(doc.appliedSeq).toBe(1);
      expect(await writes.findOne({ _id: `${doc._id}|1` } as object)).toBeNull();
    }
    expect((await stored(profiles.get(a)!.ProfileId))!.appliedSeq).toBe(2);
    // One profile per record's id.
    const holders = await suite.app.api
      .get<Connection>(getConnectionToken())
      .collection('profiles')
      .find({
        clientId: suite.tenant.clientId,
        state: 'active',
        'data.AlternateIds.AlternateId': { $in: [a, b, c, d, heldId] },
      })
      .toArray();
    expect(holders).toHaveLength(5);
  }, 60_000);
});

/** A profile or history answer with what differs between two profiles of one body taken out. */
function comparable(body: unknown, id: string): unknown {
  return JSON.parse(JSON.stringify(body).split(id).join('ID'), (key, value: unknown) =>
    key === 'ProfileId' || /Date(Time)?$/.test(key) || key === 'Id' ? undefined : value,
  );
}
