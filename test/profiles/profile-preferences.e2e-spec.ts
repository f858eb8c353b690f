import request from 'supertest';
import {
  configureTestTenant,
  type TestFilter,
  type TestPrograms,
  testPreference,
} from '../harness/configuration';
import { createTestTenant, TestTenant } from '../harness/session';
import { eventually, startTestApp, TestApp } from '../harness/test-app';

type Body = Record<string, any>;

/*
 * The preference rules at write time (docs/preferences-consents.md): every preference a write adds
 * or changes names an active program, a filter of it, the filter's channel (fitting the
 * container) and one of its frequencies, with the consent associations the filter
 * requires; written preferences are Active and expire after their filter's days;
 * PreservePreferences / PreserveConsents false deactivate what a merge does not restate.
 */
describe('Profile preferences: rules at write time', () => {
  let app: TestApp;
  let tenant: TestTenant;
  let auth: string;
  let programs: TestPrograms;
  /** A program of this suite (Spare), with an Email filter deactivated by one test. */
  let spare: { programId: string; email: TestFilter; stale: TestFilter; sourced: TestFilter };
  const base = () => `/Profiles/v4/${tenant.clientId}`;
  const DAY = 24 * 60 * 60 * 1000;

  const send = (method: 'post' | 'put', path: string, body: object) =>
    request(app.http)[method](`${base()}/${path}`).set('Authorization', auth).send(body);

  async function get(profileId: number, query = ''): Promise<Body> {
    return eventually(async () => {
      const res = await request(app.http)
        .get(`${base()}/Profile/${profileId}${query}`)
        .set('Authorization', auth);
      return res.status === 200 && res.body.UpdateStatus === 'Complete' ? res.body : undefined;
    });
  }

  /** Creates a profile and waits until it is applied; answers its id and acceptance time. */
  async function create(body: object): Promise<{ id: number; at: string }> {
    const res = await send('post', 'Profile', { CustomerType: 'Customer', ...body }).expect(202);
    await get(res.body.ProfileId);
    return { id: res.body.ProfileId, at: res.body.SubmittedUtcTime };
  }

  /** Merges into a profile and waits until it is applied; answers the acceptance time. */
  async function merge(profileId: number, body: object): Promise<string> {
    const res = await send('post', `Profile/${profileId}`, body).expect(202);
    await get(profileId);
    return res.body.SubmittedUtcTime;
  }

  async function updateCount(profileId: number): Promise<number> {
    const res = await request(app.http)
      .get(`${base()}/Profile/${profileId}/Updates`)
      .set('Authorization', auth)
      .expect(200);
    return res.body.Updates.length;
  }

  const email = (EmailPreferences: object[], extra: object = {}) => ({
    Emails: [{ EmailAddress: 'pat@example.com', EmailPreferences, ...extra }],
  });
  const plus = (at: string, days: number) => new Date(Date.parse(at) + days * DAY).toISOString();

  async function patch(path: string, operations: object[]): Promise<void> {
    await request(app.http)
      .patch(`${base()}/${path}`)
      .set('Authorization', auth)
      .send(operations)
      .expect(200);
  }

  beforeAll(async () => {
    app = await startTestApp();
    tenant = await createTestTenant(app);
    ({ programs } = await configureTestTenant(app, tenant));
    auth = await tenant.bearer();
    const res = await send('post', 'Programs', {
      Programs: [
        {
          Name: 'Spare',
          ProgramType: 'Marketing',
          Filters: [
            { Name: 'Spare email', ChannelID: 'Email' },
            { Name: 'Stale email', ChannelID: 'Email' },
            {
              Name: 'Sourced email',
              ChannelID: 'Email',
              PreferenceAttributes: [{ ID: 'Source', DisplayOrder: 1, IsRequired: true }],
            },
          ],
        },
      ],
    }).expect(201);
    const [program] = res.body.Programs as { Id: number; Filters: { ID: number }[] }[];
    const filterOf = (index: number): TestFilter => ({
      ProgramId: String(program.Id),
      ChannelId: 'Email',
      FilterId: String(program.Filters[index].ID),
    });
    spare = {
      programId: String(program.Id),
      email: filterOf(0),
      stale: filterOf(1),
      sourced: filterOf(2),
    };
  });
  afterAll(() => app?.close());

  it("refuses a preference without a value for its filter's required attribute", async () => {
    const { id } = await create(email([testPreference(programs.newsletter.email)]));
    const res = await send(
      'post',
      `Profile/${id}`,
      email([
        testPreference(spare.sourced, { PreferenceAttributes: [{ Key: 'Topic', Value: 'x' }] }),
      ]),
    ).expect(400);
    expect(res.body.Message).toContain(
      'Emails[0].EmailPreferences[0].PreferenceAttributes has no "Source" attribute with a value',
    );
    expect(await updateCount(id)).toBe(1);
    await merge(
      id,
      email([
        testPreference(spare.sourced, { PreferenceAttributes: [{ Key: 'source', Value: 'web' }] }),
      ]),
    );
    const profile = await get(id);
    expect(profile.Emails[0].EmailPreferences.map((p: Body) => p.FilterId)).toContain(
      spare.sourced.FilterId,
    );
  });

  describe('refusals (400 naming the field and value; nothing is queued)', () => {
    let profileId: number;
    beforeAll(async () => {
      ({ id: profileId } = await create(email([testPreference(programs.newsletter.email)])));
    });

    // Every case of every preference rule is in libs/preferences/src/domain/preference.rules.spec.ts;
    // here one refusal per kind (configuration, container, required association) shows that
    // acceptance runs the rules and stores nothing.
    const cases: [string, () => object, string | (() => string)][] = [
      [
        'an unknown program',
        () => email([testPreference({ ...programs.newsletter.email, ProgramId: '999' })]),
        'Emails[0].EmailPreferences[0].ProgramId (value "999") names no program',
      ],
      [
        "a channel other than the filter's",
        () => ({
          PhoneNumbers: [
            {
              PhoneNumber: '555 0100',
              PhonePreferences: [
                testPreference({ ...programs.newsletter.phone, ChannelId: 'SMS' }),
              ],
            },
          ],
        }),
        () =>
          `PhoneNumbers[0].PhonePreferences[0].ChannelId (value "SMS") is not the channel of filter ${programs.newsletter.phone.FilterId} (Phone)`,
      ],
      [
        'a missing required consent association',
        () => email([testPreference(programs.offers.email)]),
        () =>
          `Emails[0].EmailPreferences[0].ConsentAssociations has no active association with the consent type "Marketing", which filter ${programs.offers.email.FilterId} requires`,
      ],
    ];

    it.each(cases)('refuses %s', async (_name, body, expected) => {
      const message = typeof expected === 'string' ? expected : expected();
      const before = await updateCount(profileId);
      const res = await send('post', `Profile/${profileId}`, body()).expect(400);
      expect(res.body.Message).toContain(message);
      expect(await updateCount(profileId)).toBe(before);
      // A create is refused alike.
      const created = await send('post', 'Profile', { CustomerType: 'Customer', ...body() });
      expect(created.status).toBe(400);
      expect(created.body.Message).toContain(message);
    });

    // Inactive filters and programs are refused case by case in preference.rules.spec.ts; a
    // filter deactivated through the api is refused below (a changed preference on it).
    it('refuses a preference on a program deactivated through the api', async () => {
      const res = await send('post', 'Programs', {
        Programs: [
          {
            Name: 'Paused',
            ProgramType: 'Marketing',
            Filters: [{ Name: 'Kept', ChannelID: 'Email' }],
          },
        ],
      }).expect(201);
      const [paused] = res.body.Programs as { Id: number; Filters: { ID: number }[] }[];
      const kept = {
        ProgramId: String(paused.Id),
        ChannelId: 'Email',
        FilterId: String(paused.Filters[0].ID),
      };
      // Valid before it is deactivated.
      const valid = await send('post', 'Profile', {
        CustomerType: 'Customer',
        ...email([testPreference(kept)]),
      });
      expect(valid.status).toBe(202);
      await patch(`Programs/${paused.Id}`, [{ op: 'replace', path: '/IsActive', value: false }]);

      const before = await updateCount(profileId);
      const refused = await send(
        'post',
        `Profile/${profileId}`,
        email([testPreference(kept)]),
      ).expect(400);
      expect(refused.body.Message).toContain(
        `Emails[0].EmailPreferences[0].ProgramId (value "${paused.Id}") is an inactive program`,
      );
      expect(await updateCount(profileId)).toBe(before);
    });

    it('refuses in the worker too: a PATCH adding a bad preference is 400 and changes nothing', async () => {
      const res = await request(app.http)
        .patch(`${base()}/Profile/${profileId}`)
        .set('Authorization', auth)
        .send([
          {
            op: 'add',
            path: '/Emails/0/EmailPreferences/-',
            value: testPreference(programs.offers.email),
          },
        ])
        .expect(400);
      expect(res.body.Message).toContain(
        `Emails[0].EmailPreferences[1].ConsentAssociations has no active association with the consent type "Marketing"`,
      );
      const profile = await get(profileId);
      expect(profile.Emails[0].EmailPreferences).toHaveLength(1);
    });
  });

  // What the preference centre sends to end a confirmed opt-in's GPC mark (centre-changes.ts).
  it("a merge's null Value clears the attribute's value, and is refused for a required one", async () => {
    const gpc = (Value: string | null) =>
      email([
        testPreference(spare.email, {
          PreferenceAttributes: [{ Key: '$GlobalPrivacyControl', Value }],
        }),
      ]);
    const { id } = await create(gpc('OptInConfirmed'));
    await merge(id, gpc(null));
    expect((await get(id)).Emails[0].EmailPreferences[0].PreferenceAttributes).toEqual([
      { Key: '$GlobalPrivacyControl' },
    ]);

    const res = await send(
      'post',
      `Profile/${id}`,
      email([
        testPreference(spare.sourced, { PreferenceAttributes: [{ Key: 'Source', Value: null }] }),
      ]),
    ).expect(400);
    expect(res.body.Message).toContain(
      'Emails[0].EmailPreferences[0].PreferenceAttributes has no "Source" attribute with a value',
    );
    expect(await updateCount(id)).toBe(2);
  });

  it('accepts valid preferences on every container, in any spelling of the channel', async () => {
    const { newsletter, offers } = programs;
    const { id } = await create({
      ProfilePreferences: [testPreference(newsletter.solicit, { ChannelId: 'solicit' })],
      Emails: [
        {
          EmailAddress: 'all@example.com',
          EmailPreferences: [
            testPreference(newsletter.email, { FrequencyId: 'monthly' }),
            testPreference(offers.email, {
              ConsentAssociations: [{ ConsentType: 'Marketing', ConsentVersion: '1.0' }],
            }),
          ],
        },
      ],
      PhoneNumbers: [
        {
          PhoneNumber: '555 0101',
          PhonePreferences: [
            testPreference(newsletter.sms, { ChannelId: 'sms' }),
            testPreference(newsletter.phone, { PreferenceType: 2 }),
          ],
        },
      ],
      Addresses: [
        {
          AddressType: 'Home',
          Address1: '2 Main St',
          PostalCode: '1000',
          AddressPreferences: [testPreference(newsletter.mail, { MatchType: 'EXPRESSED' })],
        },
      ],
    });
    const profile = await get(id);
    const keyOf = (p: Body) => [p.ProgramId, p.ChannelId, p.FilterId];
    const asKey = (f: TestFilter) => [f.ProgramId, f.ChannelId, f.FilterId];
    expect(profile.ProfilePreferences.map(keyOf)).toEqual([asKey(newsletter.solicit)]);
    expect(profile.Emails[0].EmailPreferences.map(keyOf)).toEqual([
      asKey(newsletter.email),
      asKey(offers.email),
    ]);
    // Stored in the canonical spelling: "sms" is Text/SMS.
    expect(profile.PhoneNumbers[0].PhonePreferences.map(keyOf)).toEqual([
      [newsletter.sms.ProgramId, 'Text/SMS', newsletter.sms.FilterId],
      asKey(newsletter.phone),
    ]);
    expect(profile.Addresses[0].AddressPreferences[0]).toMatchObject({
      ...newsletter.mail,
      MatchType: 'Expressed',
      PreferenceStatus: 'Active',
    });
    // The same preference under another spelling of its channel is the same preference.
    await merge(id, {
      PhoneNumbers: [
        {
          PhoneNumber: '555 0101',
          PhonePreferences: [
            testPreference(newsletter.sms, { ChannelId: 'Text', SourceId: 'app' }),
          ],
        },
      ],
    });
    const after = await get(id);
    expect(after.PhoneNumbers[0].PhonePreferences).toHaveLength(2);
    expect(after.PhoneNumbers[0].PhonePreferences[0]).toMatchObject({
      ChannelId: 'Text/SMS',
      SourceId: 'app',
    });
  });

  // Every combination of preference type and customer kind is in preference.rules.spec.ts.
  // Here a prospect's opt-out: the filter's non-customer days reach the rules too (a
  // customer's opt-in is dated in the next test).
  it("computes ExpirationDate from the filter's days for the customer kind (a prospect's opt-out)", async () => {
    const { id, at } = await create({
      CustomerType: 'Prospect',
      ...email([testPreference(programs.newsletter.email, { PreferenceType: 2 })]),
    });
    expect((await get(id)).Emails[0].EmailPreferences[0]).toMatchObject({
      PreferenceStatus: 'Active',
      ExpirationDate: plus(at, 10),
    });
  });

  // A sent ExpirationDate (kept when earlier, else recomputed) is in preference.rules.spec.ts.
  it('recomputes ExpirationDate on a change, and keeps the date of an unchanged preference', async () => {
    const filter = programs.newsletter.email;
    const { id, at } = await create(email([testPreference(filter)]));
    expect((await get(id)).Emails[0].EmailPreferences[0].ExpirationDate).toBe(plus(at, 365));

    // A merge that restates it unchanged (and sends a status) changes neither.
    await merge(id, email([testPreference(filter, { PreferenceStatus: 'Expired' })]));
    expect((await get(id)).Emails[0].EmailPreferences[0]).toMatchObject({
      PreferenceStatus: 'Active',
      ExpirationDate: plus(at, 365),
    });

    const changedAt = await merge(id, email([testPreference(filter, { FrequencyId: 'Weekly' })]));
    expect((await get(id)).Emails[0].EmailPreferences[0].ExpirationDate).toBe(plus(changedAt, 365));
  });

  it('an unchanged preference on a filter deactivated since does not block later writes', async () => {
    const { id } = await create(
      email([testPreference(spare.stale, { SourceId: 'web' }), testPreference(spare.email)]),
    );
    await patch(`Filters/${spare.stale.FilterId}`, [
      { op: 'replace', path: '/IsActive', value: false },
    ]);
    const stored = await get(id);
    // The profile as retrieved, sent back with a change elsewhere: allowed (merge and PUT).
    await merge(id, { ...stored, CustomerName: { FirstName: 'Pat' } });
    const putRes = await send('put', `Profile/${id}`, {
      ...stored,
      CustomerName: { FirstName: 'Patty' },
    }).expect(202);
    expect(putRes.body.ProfileId).toBe(id);
    const after = await get(id);
    expect(after.CustomerName.FirstName).toBe('Patty');
    expect(after.Emails[0].EmailPreferences.map((p: Body) => p.FilterId)).toEqual([
      spare.stale.FilterId,
      spare.email.FilterId,
    ]);
    // Changing it is checked.
    const refused = await send(
      'post',
      `Profile/${id}`,
      email([testPreference(spare.stale, { SourceId: 'app' })]),
    ).expect(400);
    expect(refused.body.Message).toContain('is an inactive filter');
  });

  it('PreservePreferences false deactivates the preferences a merge does not restate, kept in history', async () => {
    const { newsletter } = programs;
    const { id } = await create({
      ProfilePreferences: [testPreference(newsletter.solicit)],
      Emails: [
        {
          EmailAddress: 'keep@example.com',
          EmailPreferences: [testPreference(newsletter.email), testPreference(programs.dnc.email)],
        },
      ],
      PhoneNumbers: [
        { PhoneNumber: '555 0102', PhonePreferences: [testPreference(newsletter.sms)] },
      ],
    });
    // Default (true): a merge naming one preference keeps the others.
    await merge(id, {
      Emails: [
        { EmailAddress: 'keep@example.com', EmailPreferences: [testPreference(newsletter.email)] },
      ],
    });
    let profile = await get(id);
    expect(profile.Emails[0].EmailPreferences).toHaveLength(2);

    const at = await merge(id, {
      PreservePreferences: false,
      Emails: [
        {
          EmailAddress: 'KEEP@example.com',
          EmailPreferences: [testPreference(newsletter.email, { FrequencyId: 'Weekly' })],
        },
      ],
    });
    profile = await get(id);
    expect(profile.PreservePreferences).toBe(false);
    expect(profile.ProfilePreferences).toEqual([]);
    expect(profile.PhoneNumbers[0].PhonePreferences).toEqual([]);
    expect(profile.Emails[0].EmailPreferences.map((p: Body) => p.FilterId)).toEqual([
      newsletter.email.FilterId,
    ]);

    const history = await request(app.http)
      .get(`${base()}/Profile/${id}/History/Preferences?filterId=${newsletter.solicit.FilterId}`)
      .set('Authorization', auth)
      .expect(200);
    expect(history.body.map((entry: Body) => entry.ProfilePreferences[0])).toEqual([
      expect.objectContaining({ ...newsletter.solicit, IsActive: true }),
      expect.objectContaining({ ...newsletter.solicit, IsActive: false, LastModifiedDate: at }),
    ]);

    // The flag acts on the write that sends it: a later merge keeps what it does not name,
    // though the stored flag is still false.
    await merge(id, {
      PhoneNumbers: [
        { PhoneNumber: '555 0102', PhonePreferences: [testPreference(newsletter.phone)] },
      ],
    });
    profile = await get(id);
    expect(profile.PreservePreferences).toBe(false);
    expect(profile.Emails[0].EmailPreferences.map((p: Body) => p.FilterId)).toEqual([
      newsletter.email.FilterId,
    ]);
    expect(profile.PhoneNumbers[0].PhonePreferences.map((p: Body) => p.FilterId)).toEqual([
      newsletter.phone.FilterId,
    ]);
  });

  it('PreserveConsents false deactivates the contact element consents a merge does not restate', async () => {
    const consent = (ConsentType: string) => ({
      ConsentType,
      ConsentVersion: '1.0',
      ConsentStatus: 1,
    });
    const { id } = await create({
      Consents: [consent('Terms')],
      Emails: [
        { EmailAddress: 'c@example.com', Consents: [consent('Email'), consent('Marketing')] },
      ],
      PhoneNumbers: [{ PhoneNumber: '555 0103', Consents: [consent('Sms')] }],
    });
    const at = await merge(id, {
      PreserveConsents: false,
      Emails: [{ EmailAddress: 'c@example.com', Consents: [consent('Email')] }],
    });
    const profile = await get(id);
    expect(profile.PreserveConsents).toBe(false);
    expect(profile.Consents.map((c: Body) => c.ConsentType)).toEqual(['Terms']);
    expect(profile.Emails[0].Consents.map((c: Body) => c.ConsentType)).toEqual(['Email']);
    expect(profile.PhoneNumbers[0].Consents).toEqual([]);
    const history = await request(app.http)
      .get(`${base()}/Profile/${id}/History/Consents`)
      .set('Authorization', auth)
      .expect(200);
    const sms = history.body
      .map((entry: Body) => entry.PhoneNumbers?.[0]?.Consents?.[0])
      .filter((c: Body | undefined) => c?.ConsentType === 'Sms');
    expect(sms).toEqual([
      expect.objectContaining({ IsActive: true }),
      expect.objectContaining({
        IsActive: false,
        Edited: expect.objectContaining({ ModifiedDate: at }),
      }),
    ]);
  });

  it('implied preferences (MatchType Implied) are returned only with implied=true', async () => {
    const { newsletter } = programs;
    const { id } = await create(
      email([
        testPreference(newsletter.email, { MatchType: 'Expressed' }),
        testPreference(programs.dnc.email, { MatchType: 'implied' }),
      ]),
    );
    const plain = await get(id);
    expect(plain.Emails[0].EmailPreferences.map((p: Body) => p.FilterId)).toEqual([
      newsletter.email.FilterId,
    ]);
    const all = await get(id, '?implied=true');
    expect(all.Emails[0].EmailPreferences[1]).toMatchObject({
      ...programs.dnc.email,
      MatchType: 'Implied',
    });
  });
});
