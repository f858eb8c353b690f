import request from 'supertest';
import { TenantAdminService } from '@app/auth';
import { DO_NOT_CONTACT_PROPAGATION } from '@app/consents';
import { configureTestTenant, testPreference, type TestPrograms } from '../harness/configuration';
import { createTestTenant, type TestTenant } from '../harness/session';
import { startTestApp, type TestApp } from '../harness/test-app';
import { profileClient, runJob } from '../jobs/job-helpers';

type Body = Record<string, any>;

/*
 * The contact decision (docs/decisions.md): one test per row of the table of cases, the
 * batch, the 400s, permissions and user-group scope, and tenants. Each reason names the
 * history entry that proves it (`<client>|<profile>|<seq>|<n>`).
 */
describe('Contact decisions', () => {
  let app: TestApp;
  let tenant: TestTenant;
  let other: TestTenant;
  let programs: TestPrograms;
  let profiles: ReturnType<typeof profileClient>;
  let auth: string;
  const DAY = 24 * 3600 * 1000;
  const past = () => new Date(Date.now() - DAY).toISOString();

  const ask = async (query: Record<string, string | number>, as: string = auth, t = tenant) =>
    request(app.http)
      .get(`/Profiles/v4/${t.clientId}/ContactDecision`)
      .query(query)
      .set('Authorization', as);
  const askMany = (Questions: unknown, as: string = auth, t = tenant) =>
    request(app.http)
      .post(`/Profiles/v4/${t.clientId}/ContactDecisions`)
      .set('Authorization', as)
      .send({ Questions });
  const decision = async (query: Record<string, string | number>): Promise<Body> => {
    const res = await ask(query);
    if (res.status !== 200) throw new Error(`${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const codes = (answer: Body) => (answer.Reasons as Body[]).map((r) => `${r.Effect}:${r.Code}`);
  const reason = (answer: Body, code: string) =>
    (answer.Reasons as Body[]).find((r) => r.Code === code)!;
  const entryOf = (profileId: number, seq: number) =>
    expect.stringMatching(new RegExp(`^${tenant.clientId}\\|${profileId}\\|${seq}\\|\\d+$`));

  /** Creates a profile and waits for it; answers its id. */
  async function created(body: object): Promise<number> {
    const id = await profiles.create(body);
    await profiles.complete(id);
    return id;
  }
  async function merged(id: number, body: object): Promise<void> {
    await request(app.http)
      .post(`/Profiles/v4/${tenant.clientId}/Profile/${id}`)
      .set('Authorization', auth)
      .send(body)
      .expect(202);
    await profiles.complete(id);
  }
  const newsByEmail = (
    address: string,
    extra: Record<string, unknown> = {},
    element: object = {},
  ) => ({
    Emails: [
      {
        EmailAddress: address,
        EmailPreferences: [testPreference(programs.newsletter.email, extra)],
        ...element,
      },
    ],
  });
  const offersByEmail = (address: string, consents: object[]) => ({
    Emails: [
      {
        EmailAddress: address,
        Consents: consents,
        EmailPreferences: [
          testPreference(programs.offers.email, {
            ConsentAssociations: [{ ConsentType: 'Marketing', ConsentVersion: '1.0' }],
          }),
        ],
      },
    ],
  });
  const news = () => ({ channelId: 'Email', programId: programs.newsletter.email.ProgramId });
  const offers = () => ({ channelId: 'Email', programId: programs.offers.email.ProgramId });

  beforeAll(async () => {
    app = await startTestApp();
    tenant = await createTestTenant(app);
    other = await createTestTenant(app);
    ({ programs } = await configureTestTenant(app, tenant));
    await configureTestTenant(app, other);
    profiles = profileClient(app, tenant);
    auth = await tenant.bearer();
  });
  afterAll(() => app?.close());

  it('allows an expressed opt-in, naming the history entry that wrote it', async () => {
    const id = await created(newsByEmail('allowed@example.com'));
    const answer = await decision({ profileId: id, ...news() });
    expect(answer).toMatchObject({
      Allowed: true,
      ProfileIds: [id],
      ChannelId: 'Email',
      ProgramId: programs.newsletter.email.ProgramId,
    });
    expect(codes(answer)).toEqual(['Allow:OptedIn']);
    expect(reason(answer, 'OptedIn')).toMatchObject({
      Level: 'ContactElement',
      ContactList: 'Emails',
      Contact: { EmailAddress: 'allowed@example.com' },
      Preference: { MatchType: 'Expressed', PreferenceType: 1, PreferenceStatus: 'Active' },
      HistoryEntryId: entryOf(id, 1),
    });
    // The reference is internal: GET and the history show nothing of it.
    const profile = await profiles.get(id);
    expect(JSON.stringify(profile)).not.toContain('historyRef');
    const history = await profiles.history(id, 'Preferences');
    expect(JSON.stringify(history)).not.toContain('historyRef');
  });

  it('says an implied preference is implied (it allows like an expressed one)', async () => {
    const id = await created(newsByEmail('implied@example.com', { MatchType: 'Implied' }));
    const answer = await decision({ profileId: id, ...news() });
    expect(answer.Allowed).toBe(true);
    expect(reason(answer, 'OptedIn').Preference.MatchType).toBe('Implied');
  });

  it('refuses an opt-out', async () => {
    const id = await created(newsByEmail('out@example.com', { PreferenceType: 2 }));
    const answer = await decision({ profileId: id, ...news() });
    expect(answer.Allowed).toBe(false);
    expect(codes(answer)).toEqual(['Deny:OptedOut']);
    expect(reason(answer, 'OptedOut').HistoryEntryId).toEqual(entryOf(id, 1));
  });

  it('refuses a preference past its ExpirationDate', async () => {
    const id = await created(newsByEmail('late@example.com', { ExpirationDate: past() }));
    const answer = await decision({ profileId: id, ...news() });
    expect(answer.Allowed).toBe(false);
    expect(codes(answer)).toEqual(['Deny:PreferenceExpired']);
  });

  it('refuses without a preference, and names the archived one', async () => {
    const id = await created({ Emails: [{ EmailAddress: 'none@example.com' }] });
    expect(codes(await decision({ profileId: id, ...news() }))).toEqual(['Deny:NoPreference']);
    const archived = await created(newsByEmail('archived@example.com'));
    await request(app.http)
      .post(`/Profiles/v4/${tenant.clientId}/Profile/${archived}`)
      .set('Authorization', auth)
      .send({ PreservePreferences: false, Emails: [{ EmailAddress: 'archived@example.com' }] })
      .expect(202);
    await profiles.complete(archived);
    const answer = await decision({ profileId: archived, ...news() });
    expect(codes(answer)).toEqual(['Deny:PreferenceArchived']);
    expect(reason(answer, 'PreferenceArchived').HistoryEntryId).toEqual(entryOf(archived, 2));
  });

  it('requires the consents of the filter: granted allows, missing, revoked and expired refuse', async () => {
    const granted = await created(
      offersByEmail('granted@example.com', [
        { ConsentType: 'Marketing', ConsentVersion: '1.0', ConsentStatus: 1 },
      ]),
    );
    const ok = await decision({ profileId: granted, ...offers() });
    expect(ok.Allowed).toBe(true);
    expect(codes(ok)).toEqual(['Allow:OptedIn', 'Allow:ConsentGranted']);
    expect(reason(ok, 'ConsentGranted')).toMatchObject({
      Level: 'ContactElement',
      Consent: {
        ConsentType: 'Marketing',
        ConsentStatus: 1,
        ConsentVersion: '1.0',
        Expired: false,
        RequiredBy: ['Association', 'Filter'],
      },
      HistoryEntryId: entryOf(granted, 1),
    });

    const missing = await created(offersByEmail('missing@example.com', []));
    const no = await decision({ profileId: missing, ...offers() });
    expect(no.Allowed).toBe(false);
    expect(codes(no)).toEqual(['Allow:OptedIn', 'Deny:ConsentMissing']);

    await merged(granted, {
      Emails: [
        {
          EmailAddress: 'granted@example.com',
          Consents: [{ ConsentType: 'Marketing', ConsentStatus: 3 }],
        },
      ],
    });
    const revoked = await decision({ profileId: granted, ...offers() });
    expect(revoked.Allowed).toBe(false);
    expect(reason(revoked, 'ConsentRevoked').HistoryEntryId).toEqual(entryOf(granted, 2));

    const expired = await created(
      offersByEmail('expired@example.com', [
        {
          ConsentType: 'Marketing',
          ConsentVersion: '1.0',
          ConsentStatus: 1,
          ExpirationDate: past(),
        },
      ]),
    );
    expect(codes(await decision({ profileId: expired, ...offers() }))).toEqual([
      'Allow:OptedIn',
      'Deny:ConsentExpired',
    ]);
  });

  it('checks the consent type a question names, on the profile when not on the element', async () => {
    const id = await created({
      ...newsByEmail('terms@example.com'),
      Consents: [{ ConsentType: 'Terms', ConsentVersion: '1.0', ConsentStatus: 2 }],
    });
    const answer = await decision({ profileId: id, ...news(), consentType: 'terms' });
    expect(answer.Allowed).toBe(false);
    expect(reason(answer, 'ConsentDenied')).toMatchObject({
      Level: 'Profile',
      Consent: { ConsentType: 'Terms', RequiredBy: ['Question'], ConsentStatus: 2 },
      HistoryEntryId: entryOf(id, 1),
    });
  });

  it('refuses a value on a do-not-contact list, before and after the listing reaches the profile', async () => {
    const id = await created(newsByEmail('listed@example.com'));
    const listId = (
      await request(app.http)
        .post(`/Profiles/v4/${tenant.clientId}/DoNotContactLists`)
        .set('Authorization', auth)
        .send({ Name: 'Complaints', ListType: 'Email' })
        .expect(201)
    ).body.ListId;
    // Asked once before the listing: a cached "not listed" must not survive it.
    expect((await decision({ profileId: id, ...news() })).Allowed).toBe(true);
    await request(app.http)
      .post(`/Profiles/v4/${tenant.clientId}/DoNotContactLists/${listId}/Entries`)
      .set('Authorization', auth)
      .send({ Entries: [{ Value: 'LISTED@example.com', Reason_Code: 'Complaint' }] })
      .expect(200);
    const before = await decision({ profileId: id, ...news() });
    expect(before.Allowed).toBe(false);
    expect(reason(before, 'DoNotContact')).toMatchObject({
      Effect: 'Deny',
      MarkedOnProfile: false,
      DoNotContactLists: [
        { ListId: listId, ListName: 'Complaints', ReasonCode: 'Complaint', Propagated: false },
      ],
      HistoryEntryId: null,
    });
    await runJob(app, DO_NOT_CONTACT_PROPAGATION);
    await profiles.complete(id);
    const after = await decision({ profileId: id, ...news() });
    expect(after.Allowed).toBe(false);
    expect(reason(after, 'DoNotContact')).toMatchObject({
      MarkedOnProfile: true,
      DoNotContactLists: [{ ListId: listId, Propagated: true }],
      HistoryEntryId: entryOf(id, 2),
    });
    // A bare value nobody holds is still refused by the list.
    const bare = await decision({ emailAddress: 'listed@EXAMPLE.com', ...news() });
    expect(bare.Allowed).toBe(false);
    expect(codes(bare)).toContain('Deny:DoNotContact');
  });

  it('refuses an inactive contact element and an inactive profile', async () => {
    const id = await created({
      Emails: [
        { EmailAddress: 'keep@example.com', IsDefault: true },
        {
          EmailAddress: 'gone@example.com',
          EmailPreferences: [testPreference(programs.newsletter.email)],
        },
      ],
    });
    await merged(id, { Emails: [{ EmailAddress: 'gone@example.com', IsActive: false }] });
    const element = await decision({ profileId: id, emailAddress: 'gone@example.com', ...news() });
    expect(element.Allowed).toBe(false);
    expect(reason(element, 'ElementInactive').HistoryEntryId).toEqual(entryOf(id, 2));
    // The default email (no address named) has no newsletter preference.
    expect(codes(await decision({ profileId: id, ...news() }))).toEqual(['Deny:NoPreference']);
    expect(
      codes(await decision({ profileId: id, emailAddress: 'elsewhere@example.com', ...news() })),
    ).toEqual(['Deny:ElementNotFound']);

    const inactive = await created(newsByEmail('asleep@example.com'));
    await merged(inactive, { IsActive: false });
    const profile = await decision({ profileId: inactive, ...news() });
    expect(profile.Allowed).toBe(false);
    expect(codes(profile)).toEqual(['Deny:ProfileInactive']);
    expect(reason(profile, 'ProfileInactive').HistoryEntryId).toEqual(entryOf(inactive, 2));
  });

  it('notes a pending write that may change the answer', async () => {
    const id = await created(newsByEmail('pending@example.com'));
    const [worker] = app.workers;
    await app.stopWorker(worker);
    try {
      await request(app.http)
        .post(`/Profiles/v4/${tenant.clientId}/Profile/${id}`)
        .set('Authorization', auth)
        .send(newsByEmail('pending@example.com', { PreferenceType: 2 }))
        .expect(202);
      const answer = await decision({ profileId: id, ...news() });
      expect(answer.Allowed).toBe(true);
      expect(reason(answer, 'PendingWrite')).toMatchObject({
        Effect: 'Note',
        PendingWrite: { AppliedSeq: 1, AcceptedSeq: 2 },
      });
    } finally {
      await app.startWorker();
    }
    await profiles.complete(id);
    expect(codes(await decision({ profileId: id, ...news() }))).toEqual(['Deny:OptedOut']);
  });

  it('answers by alternate id, for the Solicit channel on the profile, and for a bare email or phone', async () => {
    const id = await created({
      AlternateIds: [{ AlternateIdType: 'CRM', AlternateId: 'dec-1' }],
      ProfilePreferences: [testPreference(programs.newsletter.solicit)],
      Emails: [
        {
          EmailAddress: 'Bare@Example.com',
          EmailPreferences: [testPreference(programs.newsletter.email)],
        },
      ],
      PhoneNumbers: [
        {
          PhoneNumber: '+1 (555) 010-0042',
          PhonePreferences: [testPreference(programs.newsletter.sms)],
        },
      ],
    });
    const byPair = await decision({
      alternateIdType: 'crm',
      alternateId: 'DEC-1',
      channelId: 'Solicit',
      programId: programs.newsletter.email.ProgramId,
    });
    expect(byPair).toMatchObject({ Allowed: true, ProfileIds: [id] });
    expect(reason(byPair, 'OptedIn').Level).toBe('Profile');
    const bareEmail = await decision({ emailAddress: ' bare@example.COM ', ...news() });
    expect(bareEmail).toMatchObject({ Allowed: true, ProfileIds: [id] });
    const bareSms = await decision({
      phoneNumber: '15550100042',
      channelId: 'sms',
      programId: programs.newsletter.email.ProgramId,
    });
    expect(bareSms).toMatchObject({ Allowed: true, ProfileIds: [id], ChannelId: 'Text/SMS' });
    // Nobody holds it: answered, not a 404.
    const nobody = await decision({ emailAddress: 'nobody@example.com', ...news() });
    expect(nobody).toMatchObject({ Allowed: false, ProfileIds: [] });
    expect(codes(nobody)).toEqual(['Deny:NoProfile']);
  });

  it('answers 404 for an unknown profile (GET), and ProfileNotFound in a batch', async () => {
    const res = await ask({ profileId: 999999, ...news() });
    expect(res.status).toBe(404);
    expect(res.body.Message).toContain('999999');
    const alt = await ask({ alternateIdType: 'CRM', alternateId: 'nope', ...news() });
    expect(alt.status).toBe(404);
  });

  it('answers a mixed batch in order, reading each profile once', async () => {
    const yes = await created(newsByEmail('batch-yes@example.com'));
    const no = await created(newsByEmail('batch-no@example.com', { PreferenceType: 2 }));
    const { ProgramId } = programs.newsletter.email;
    const res = await askMany([
      { ProfileId: yes, ChannelId: 'Email', ProgramId },
      { ProfileId: no, ChannelId: 'Email', ProgramId },
      { EmailAddress: 'batch-yes@example.com', ChannelId: 'Email', ProgramId },
      { ProfileId: 999998, ChannelId: 'Email', ProgramId },
      {
        ProfileId: yes,
        ChannelId: 'Email',
        ProgramId,
        FilterId: programs.newsletter.email.FilterId,
      },
    ]).expect(200);
    const decisions = res.body.Decisions as Body[];
    expect(decisions.map((d) => d.Allowed)).toEqual([true, false, true, false, true]);
    expect(codes(decisions[3])).toEqual(['Deny:ProfileNotFound']);
    expect(decisions[2].ProfileIds).toEqual([yes]);
    expect(decisions[4].FilterId).toBe(programs.newsletter.email.FilterId);
  });

  it('refuses malformed questions with 400 naming the field and the value', async () => {
    const { ProgramId } = programs.newsletter.email;
    const noChannel = await ask({ profileId: 1, programId: ProgramId });
    expect(noChannel.status).toBe(400);
    expect(noChannel.body.Message).toContain('channelId is required');
    const badProgram = await ask({ profileId: 1, channelId: 'Email', programId: 'Newsletter' });
    expect(badProgram.status).toBe(400);
    expect(badProgram.body.Message).toBe(
      'Query parameter programId (value "Newsletter") names no program of this account',
    );
    const dnc = await ask({
      profileId: 1,
      channelId: 'Email',
      programId: programs.dnc.email.ProgramId,
    });
    expect(dnc.status).toBe(400);
    expect(dnc.body.Message).toContain('Do Not Contact program');
    const wrongFilter = await ask({
      profileId: 1,
      channelId: 'Email',
      programId: ProgramId,
      filterId: programs.newsletter.sms.FilterId,
    });
    expect(wrongFilter.status).toBe(400);
    expect(wrongFilter.body.Message).toContain('is not the channel of filter');
    const mismatch = await ask({
      phoneNumber: '5550100001',
      channelId: 'Email',
      programId: ProgramId,
    });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.Message).toContain('phoneNumber (value "5550100001") does not fit');
    const unknown = await ask({
      profileId: 1,
      channelId: 'Email',
      programId: ProgramId,
      channel: 'x',
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.Message).toContain('"channel"');

    const question = { ProfileId: 1, ChannelId: 'Email', ProgramId };
    const tooMany = await askMany(Array.from({ length: 1001 }, () => question));
    expect(tooMany.status).toBe(400);
    // The body bounds every JSON body is checked against refuse it before the route (docs/api.md).
    expect(tooMany.body.Message).toBe('$.Questions has 1001 elements; at most 1000 are accepted');
    const bad = await askMany([question, { ...question, ChannelId: 'Fax' }]);
    expect(bad.status).toBe(400);
    expect(bad.body.Message).toContain('Questions[1].ChannelId (value "Fax") names no channel');
    expect((await askMany([])).status).toBe(400);
    const badBody = await request(app.http)
      .post(`/Profiles/v4/${tenant.clientId}/ContactDecisions`)
      .set('Authorization', auth)
      .send({ Questions: [question], Extra: 1 });
    expect(badBody.status).toBe(400);
    expect(badBody.body.Message).toContain('"Extra"');
  });

  it('needs profiles:read, and applies the user-group scope', async () => {
    const admin = app.api.get(TenantAdminService);
    await admin.defineUserGroup(tenant.clientId, 'No profiles', [
      { area: 'preferences', access: 'read' },
    ]);
    await admin.defineUserGroup(
      tenant.clientId,
      'Offers desk',
      (['profiles', 'preferences', 'consents'] as const).map((area) => ({ area, access: 'read' })),
      { programs: [programs.offers.email.ProgramId], consentTypes: ['Email'] },
    );
    await admin.addUser({ clientId: tenant.clientId, userId: 'blind', group: 'No profiles' });
    await admin.addUser({ clientId: tenant.clientId, userId: 'desk', group: 'Offers desk' });
    const id = await created(
      offersByEmail('scoped@example.com', [
        { ConsentType: 'Marketing', ConsentVersion: '1.0', ConsentStatus: 1 },
      ]),
    );
    expect(
      (await ask({ profileId: id, ...offers() }, tenant.signed({ userId: 'blind' }))).status,
    ).toBe(403);
    const desk = tenant.signed({ userId: 'desk' });
    const outside = await ask({ profileId: id, ...news() }, desk);
    expect(outside.status).toBe(403);
    expect(outside.body.Message).toContain("outside your user group's programs");
    expect((await ask({ profileId: id, ...offers(), consentType: 'Terms' }, desk)).status).toBe(
      403,
    );
    const seen = await ask({ profileId: id, ...offers() }, desk);
    expect(seen.status).toBe(200);
    expect(seen.body.Allowed).toBe(true);
    const consent = reason(seen.body, 'ConsentGranted');
    expect(consent.Consent).toEqual({ Hidden: true });
    expect(consent.HistoryEntryId).toBeNull();
    expect(JSON.stringify(seen.body)).not.toContain('Marketing');
  });

  it('keeps tenants apart: another client sees neither the profile nor its values', async () => {
    const id = await created(newsByEmail('tenant-a@example.com'));
    const otherAuth = await other.bearer();
    const { ProgramId } = programs.newsletter.email;
    const res = await ask(
      { profileId: id, channelId: 'Email', programId: ProgramId },
      otherAuth,
      other,
    );
    expect(res.status).toBe(404);
    const bare = await ask(
      { emailAddress: 'tenant-a@example.com', channelId: 'Email', programId: ProgramId },
      otherAuth,
      other,
    );
    expect(bare.status).toBe(200);
    expect(bare.body).toMatchObject({ Allowed: false, ProfileIds: [] });
    // Another client's path is a 404 like an unknown client.
    expect((await ask({ profileId: id, ...news() }, otherAuth)).status).toBe(404);
  });
});
