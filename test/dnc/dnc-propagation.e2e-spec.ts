import { getConnectionToken } from '@nestjs/mongoose';
import type { Connection } from 'mongoose';
import request from 'supertest';
import { DncRepository } from '../../libs/consents/src/do-not-contact/dnc.repository';
import { configureTestTenant, testPreference, type TestPrograms } from '../harness/configuration';
import { createTestTenant, TestTenant } from '../harness/session';
import { eventually, startTestApp, TestApp } from '../harness/test-app';
import { DO_NOT_CONTACT_PROPAGATION } from '@app/consents';
import { profileClient, runJob } from '../jobs/job-helpers';

type Entry = Record<string, any>;

/*
 * A value put on a do-not-contact list reaches every profile holding it through the
 * worker's scheduled job: the contact element gets a preference on the account's Do Not
 * Contact filter, consents tied to its other preferences are revoked (with history), and
 * when the value leaves the list that preference is archived.
 */
describe('Do-not-contact propagation', () => {
  let app: TestApp;
  let tenant: TestTenant;
  let programs: TestPrograms;
  let profiles: ReturnType<typeof profileClient>;

  const lists = async (path: string, body?: object, method: 'post' | 'delete' = 'post') => {
    const call = request(app.http)
      [method](`/Profiles/v4/${tenant.clientId}/DoNotContactLists${path}`)
      .set('Authorization', await tenant.bearer());
    return body ? call.send(body) : call;
  };
  const entriesOf = async (listId: number): Promise<Entry[]> =>
    (
      await request(app.http)
        .get(`/Profiles/v4/${tenant.clientId}/DoNotContactLists/${listId}/Entries`)
        .set('Authorization', await tenant.bearer())
        .expect(200)
    ).body.Entries;

  const emailWithOffers = (EmailAddress: string) => ({
    EmailAddress,
    EmailAddressType: 'Personal',
    Consents: [
      { ConsentType: 'Marketing', ConsentVersion: '1.0', ConsentStatus: 1 },
      { ConsentType: 'Terms', ConsentVersion: '1.0', ConsentStatus: 1 },
    ],
    EmailPreferences: [
      testPreference(programs.offers.email, {
        ConsentAssociations: [{ ConsentType: 'Marketing', ConsentVersion: '1.0' }],
      }),
    ],
  });

  const dncPreferences = (profile: Entry) =>
    (profile.Emails[0].EmailPreferences as Entry[]).filter(
      (p) => p.FilterId === programs.dnc.email.FilterId,
    );

  beforeAll(async () => {
    app = await startTestApp({ env: { SCHEDULED_JOB_BATCH_SIZE: '1' } });
    tenant = await createTestTenant(app);
    ({ programs } = await configureTestTenant(app, tenant));
    profiles = profileClient(app, tenant);
  });

  afterAll(async () => {
    await app?.close();
  });

  it('listing marks every holder and revokes tied consents; unlisting archives the mark', async () => {
    const ann = await profiles.create({ Emails: [emailWithOffers('ann@example.com')] });
    const annToo = await profiles.create({ Emails: [emailWithOffers('Ann@Example.COM')] });
    const bob = await profiles.create({ Emails: [emailWithOffers('bob@example.com')] });
    for (const id of [ann, annToo, bob]) await profiles.complete(id);

    const listId = (await lists('', { Name: 'Complaints', ListType: 'Email' })).body.ListId;
    await lists(`/${listId}/Entries`, {
      Entries: [{ Value: ' ANN@example.com ', Reason_Code: 'Complaint' }],
    }).then((res) => expect(res.status).toBe(200));
    expect((await entriesOf(listId))[0].Propagation).toBe('Pending');

    // Batch size 1: a run stopped after one page leaves the change pending...
    await runJob(app, DO_NOT_CONTACT_PROPAGATION, { maxPages: 1 });
    expect((await entriesOf(listId))[0].Propagation).toBe('Pending');
    // ...and the next run resumes after it.
    const run = await runJob(app, DO_NOT_CONTACT_PROPAGATION);
    expect(run.outcome).toBe('ok');
    expect((await entriesOf(listId))[0].Propagation).toBe('Complete');

    for (const id of [ann, annToo]) {
      const profile = await profiles.complete(id);
      expect(dncPreferences(profile)).toEqual([
        expect.objectContaining({
          ProgramId: programs.dnc.email.ProgramId,
          PreferenceType: 1,
          PreferenceAttributes: [{ Key: '$DoNotContactLists', Value: String(listId) }],
        }),
      ]);
      const consents = Object.fromEntries(
        (profile.Emails[0].Consents as Entry[]).map((c) => [c.ConsentType, c.ConsentStatus]),
      );
      // Marketing is tied to the Offers preference; Terms is not.
      expect(consents).toEqual({ Marketing: 3, Terms: 1 });
      // Exactly one dnc-apply write, although the run was resumed.
      expect((await profiles.operations(id)).filter((op) => op === 'dnc-apply')).toHaveLength(1);
      const history = await profiles.history(id, 'Consents');
      expect(
        history.some(
          (entry) =>
            entry.Emails?.[0]?.Consents?.[0]?.ConsentStatus === 3 &&
            entry.Emails[0].Consents[0].ReasonCode === 'DoNotContact',
        ),
      ).toBe(true);
    }
    const untouched = await profiles.complete(bob);
    expect(dncPreferences(untouched)).toEqual([]);
    expect(await profiles.operations(bob)).toEqual(['create']);

    // Another run finds nothing to do.
    const idle = await runJob(app, DO_NOT_CONTACT_PROPAGATION);
    expect(idle.counts).toEqual({ entries: 0, profiles: 0 });

    // Leaving the list archives the do-not-contact preference (kept in history).
    await lists(
      `/${listId}/Entries/${encodeURIComponent('ann@example.com')}`,
      undefined,
      'delete',
    ).then((res) => expect(res.status).toBe(204));
    await runJob(app, DO_NOT_CONTACT_PROPAGATION);
    await runJob(app, DO_NOT_CONTACT_PROPAGATION);
    expect((await entriesOf(listId))[0]).toMatchObject({
      Status: 'Removed',
      Propagation: 'Complete',
    });
    const after = await profiles.complete(ann);
    expect(dncPreferences(after)).toEqual([]);
    const preferenceHistory = await profiles.history(ann, 'Preferences');
    const archived = preferenceHistory.filter(
      (entry) => entry.Emails?.[0]?.EmailPreferences?.[0]?.FilterId === programs.dnc.email.FilterId,
    );
    expect(archived.map((entry) => entry.Emails[0].EmailPreferences[0].IsActive)).toEqual([
      true,
      false,
    ]);
    // Revoked consents stay revoked: leaving a list grants nothing back.
    expect(
      after.Emails[0].Consents.find((c: Entry) => c.ConsentType === 'Marketing').ConsentStatus,
    ).toBe(3);
  });

  it('an email added to a profile after its listing gets the mark too', async () => {
    const listId = (await lists('', { Name: 'Late', ListType: 'Email' })).body.ListId;
    await lists(`/${listId}/Entries`, { Entries: [{ Value: 'late@example.com' }] });
    await runJob(app, DO_NOT_CONTACT_PROPAGATION);
    const dana = await profiles.create({ Emails: [emailWithOffers('dana@example.com')] });
    await profiles.complete(dana);
    // A merge adds the listed address: the worker queues the list's mark behind it.
    await request(app.http)
      .post(`/Profiles/v4/${tenant.clientId}/Profile/${dana}`)
      .set('Authorization', await tenant.bearer())
      .send({ Emails: [emailWithOffers('LATE@example.com')] })
      .expect(202);
    const profile = await eventually(async () => {
      const current = await profiles.complete(dana);
      const late = (current.Emails as Entry[]).find((e) => e.EmailAddress === 'LATE@example.com');
      return late?.EmailPreferences.some((p: Entry) => p.FilterId === programs.dnc.email.FilterId)
        ? current
        : undefined;
    });
    const late = (profile.Emails as Entry[]).find((e) => e.EmailAddress === 'LATE@example.com')!;
    expect(late.Consents.find((c: Entry) => c.ConsentType === 'Marketing').ConsentStatus).toBe(3);
    // The address that is not listed is left alone.
    const own = (profile.Emails as Entry[]).find((e) => e.EmailAddress === 'dana@example.com')!;
    expect(own.Consents.find((c: Entry) => c.ConsentType === 'Marketing').ConsentStatus).toBe(1);
    expect(await profiles.operations(dana)).toEqual(['create', 'merge', 'dnc-apply']);
  });

  it('phone lists match by digits', async () => {
    const carl = await profiles.create({
      PhoneNumbers: [{ PhoneNumber: '+1 (555) 010-7000', PhoneType: 'Mobile' }],
    });
    await profiles.complete(carl);
    const listId = (await lists('', { Name: 'Registry', ListType: 'Phone' })).body.ListId;
    await lists(`/${listId}/Entries`, { Entries: [{ Value: '1-555-010-7000' }] });
    await runJob(app, DO_NOT_CONTACT_PROPAGATION);
    const profile = await profiles.complete(carl);
    expect(profile.PhoneNumbers[0].PhonePreferences).toEqual([
      expect.objectContaining({
        ProgramId: programs.dnc.phone.ProgramId,
        FilterId: programs.dnc.phone.FilterId,
      }),
    ]);
  });

  it('two changes raced from one read are told apart: the job never marks the one it did not apply', async () => {
    const repository = app.api.get(DncRepository, { strict: false });
    const listId = (await lists('', { Name: 'Raced', ListType: 'Email' })).body.ListId as number;
    const at = new Date();
    const change = {
      clientId: tenant.clientId,
      listId,
      ListType: 'Email' as const,
      key: 'raced@example.com',
    };
    await repository.list({ ...change, Value: 'raced@example.com', changedBy: 'a', at });
    // Change A takes the value off the list; the job reads the entry as A left it.
    await repository.unlist(tenant.clientId, listId, change.key, 'a', at);
    const seenByJob = (await repository.findEntry(tenant.clientId, listId, change.key))!;
    // Change B, computed from the same read as A, lands after it with the same version.
    const db = app.api.get<Connection>(getConnectionToken());
    await db.collection('dnc_entries').updateOne({ _id: seenByJob._id } as object, {
      $set: { state: 'listed', changeId: 'change-b', version: seenByJob.version },
    });
    await repository.markPropagated(seenByJob, new Date());
    const stored = (await repository.findEntry(tenant.clientId, listId, change.key))!;
    expect(stored.state).toBe('listed');
    expect(stored.propagatedAt).toBeNull();
  });
});
