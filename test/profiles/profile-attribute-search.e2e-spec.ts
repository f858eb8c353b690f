import request from 'supertest';
import { ProfileReadModel } from '../../libs/profiles/src/read/profile-read-model.service';
import { ProfileRepository } from '../../libs/profiles/src/persistence/profile.repository';
import { configureTestTenant } from '../harness/configuration';
import { createTestTenant, TestTenant } from '../harness/session';
import { eventually, startTestApp, TestApp } from '../harness/test-app';

/*
 * The consent-attribute and preference-attribute searches, and the implied and
 * includeConsentHistory flags every profile search takes.
 */
describe('Profile searches by consent and preference attributes', () => {
  let app: TestApp;
  let tenant: TestTenant;
  let other: TestTenant;
  const base = (t: TestTenant = tenant) => `/Profiles/v4/${t.clientId}`;
  const ids: Record<string, number> = {};

  async function consentTypes(t: TestTenant, types: object[]): Promise<void> {
    await request(app.http)
      .post(`${base(t)}/ConsentTypes`)
      .set('Authorization', await t.bearer())
      .send({
        ConsentTypes: types.map((type) => ({
          IsActive: true,
          Versions: [
            {
              ConsentVersion: '1.0',
              LocalizedFields: [{ ConsentLanguage: 'I agree', Locale: 'en-us', Name: 'Terms' }],
            },
          ],
          ...type,
        })),
      })
      .expect(201);
  }

  async function create(body: object, t: TestTenant = tenant): Promise<number> {
    const res = await request(app.http)
      .post(`${base(t)}/Profile`)
      .set('Authorization', await t.bearer())
      .send({ CustomerType: 'Customer', ...body })
      .expect(202);
    return res.body.ProfileId as number;
  }

  async function applied(profileIds: number[], t: TestTenant = tenant): Promise<void> {
    for (const profileId of profileIds) {
      await eventually(async () => {
        const res = await request(app.http)
          .get(`${base(t)}/Profile/${profileId}`)
          .set('Authorization', await t.bearer());
        return res.status === 200 && res.body.UpdateStatus === 'Complete' ? true : undefined;
      });
    }
  }

  async function search(path: string, t: TestTenant = tenant): Promise<request.Response> {
    return request(app.http)
      .get(`${base(t)}/Profile/${path}`)
      .set('Authorization', await t.bearer());
  }

  async function found(path: string, t: TestTenant = tenant): Promise<number[]> {
    const res = await search(path, t);
    expect(res.status).toBe(200);
    expect(Array.isArray(res.body)).toBe(true);
    return (res.body as { ProfileId: number }[]).map((p) => p.ProfileId).sort((a, b) => a - b);
  }

  const attributes = (...pairs: [string, string][]) =>
    pairs
      .map(
        ([key, value], i) =>
          `attributes[${i}].Key=${encodeURIComponent(key)}&attributes[${i}].Value=${encodeURIComponent(value)}`,
      )
      .join('&');
  const consentSearch = (...pairs: [string, string][]) =>
    `Consent/Attributes?${attributes(...pairs)}`;
  const preferenceSearch = (...pairs: [string, string][]) =>
    `Preference/Attributes?${attributes(...pairs)}`;

  const consent = (type: string, extra: object = {}) => ({
    ConsentType: type,
    ConsentVersion: '1.0',
    ConsentStatus: 1,
    ...extra,
  });
  // Preferences are told apart by a label ("1", "2", ...): a filter of the program "Labelled"
  // that beforeAll creates in each tenant, a Solicit one for profile preferences and an
  // Email one for email preferences.
  type Channel = 'Solicit' | 'Email';
  const LABELS: Record<Channel, string[]> = {
    Solicit: ['1', '2', '5', '6', '9'],
    Email: ['1', '3', '4'],
  };
  const filters = new Map<string, object>();
  const labels = new Map<string, string>();
  const label = (preference: { FilterId: string }) => labels.get(preference.FilterId);
  const preference = (
    name: string,
    pairs: [string, string][],
    extra: object = {},
    channel: Channel = 'Solicit',
    t: TestTenant = tenant,
  ) => ({
    ...filters.get(`${t.clientId}|${channel}|${name}`),
    PreferenceAttributes: pairs.map(([Key, Value]) => ({ Key, Value })),
    ...extra,
  });
  const emailPreference = (name: string, pairs: [string, string][]) =>
    preference(name, pairs, {}, 'Email');

  async function createLabelledFilters(t: TestTenant): Promise<void> {
    const res = await request(app.http)
      .post(`${base(t)}/Programs`)
      .set('Authorization', await t.bearer())
      .send({
        Programs: [
          {
            Name: 'Labelled',
            ProgramType: 'Marketing',
            Filters: (Object.keys(LABELS) as Channel[]).flatMap((ChannelID) =>
              LABELS[ChannelID].map((name) => ({
                Name: `${ChannelID} ${name}`,
                ChannelID,
                // A preference may carry only the attributes its filter defines.
                PreferenceAttributes: ['Topic', 'Lang', 'Batch'].map((ID, index) => ({
                  ID,
                  DisplayOrder: index + 1,
                })),
              })),
            ),
          },
        ],
      })
      .expect(201);
    const [program] = res.body.Programs as {
      Id: number;
      Filters: { ID: number; Name: string; ChannelID: Channel }[];
    }[];
    for (const filter of program.Filters) {
      const name = filter.Name.split(' ')[1];
      const FilterId = String(filter.ID);
      filters.set(`${t.clientId}|${filter.ChannelID}|${name}`, {
        ProgramId: String(program.Id),
        ChannelId: filter.ChannelID,
        FilterId,
      });
      if (t === tenant) labels.set(FilterId, name);
    }
  }

  beforeAll(async () => {
    app = await startTestApp();
    tenant = await createTestTenant(app);
    other = await createTestTenant(app);
    await configureTestTenant(app, tenant);
    await configureTestTenant(app, other);
    await createLabelledFilters(tenant);
    await createLabelledFilters(other);
    await consentTypes(tenant, [
      {
        TypeName: 'Promo Email',
        ChannelId: 'Email',
        Attributes: [
          { Key: 'Purpose', Value: 'Marketing' },
          { Key: 'Region', Value: 'EU' },
        ],
      },
      {
        TypeName: 'Terms EU',
        Attributes: [
          { Key: 'Purpose', Value: 'Legal' },
          { Key: 'Region', Value: 'eu' },
        ],
      },
    ]);
    // The other tenant has a type of the same name and one with attributes this tenant lacks.
    await consentTypes(other, [
      {
        TypeName: 'Promo Email',
        ChannelId: 'Email',
        Attributes: [{ Key: 'Purpose', Value: 'Marketing' }],
      },
      { TypeName: 'Loyalty', Attributes: [{ Key: 'Purpose', Value: 'Loyalty' }] },
    ]);

    ids.profileConsent = await create({ Consents: [consent('Terms EU')] });
    ids.emailConsent = await create({
      Emails: [{ EmailAddress: 'promo@example.com', Consents: [consent('promo email')] }],
    });
    ids.inactiveConsent = await create({
      Emails: [
        {
          EmailAddress: 'off@example.com',
          Consents: [consent('Promo Email', { IsActive: false })],
        },
      ],
    });
    ids.inactiveEmail = await create({
      Emails: [
        {
          EmailAddress: 'gone@example.com',
          IsActive: false,
          Consents: [consent('Promo Email')],
        },
      ],
    });
    ids.plainConsent = await create({ Consents: [consent('Terms')] });

    ids.preferences = await create({
      ProfilePreferences: [
        preference('1', [
          ['Topic', 'News'],
          ['Lang', 'EN'],
        ]),
        preference('2', [['Topic', 'Sport']]),
      ],
      Emails: [
        {
          EmailAddress: 'prefs@example.com',
          EmailPreferences: [
            emailPreference('3', [['topic', 'news']]),
            emailPreference('4', [['Lang', 'EN']]),
          ],
        },
      ],
    });
    ids.preferenceOnInactiveEmail = await create({
      Emails: [
        {
          EmailAddress: 'old-prefs@example.com',
          IsActive: false,
          EmailPreferences: [emailPreference('1', [['Topic', 'News']])],
        },
      ],
    });
    ids.archivedPreference = await create({
      ProfilePreferences: [preference('1', [['Topic', 'News']])],
    });
    ids.implied = await create({
      Emails: [{ EmailAddress: 'implied@example.com' }],
      ProfilePreferences: [
        preference('5', [['Topic', 'Hints']], { MatchType: 'Implied' }),
        preference('6', [['Topic', 'Tips']], { MatchType: 'Expressed' }),
      ],
    });
    ids.otherTenant = await create(
      {
        Consents: [consent('Loyalty')],
        Emails: [{ EmailAddress: 'promo@example.com', Consents: [consent('Promo Email')] }],
        ProfilePreferences: [preference('1', [['Topic', 'News']], {}, 'Solicit', other)],
      },
      other,
    );
    await applied(Object.values(ids).filter((id) => id !== ids.otherTenant));
    await applied([ids.otherTenant], other);

    // Preferences become inactive by archiving (not yet on the wire): store one archived.
    const profiles = app.api.get(ProfileRepository);
    const stored = (await profiles.findOne(tenant.clientId, ids.archivedPreference))!;
    stored.data!.ProfilePreferences[0].IsActive = false;
    await profiles.replace(stored);
    // Written behind the worker's back: the read model must be rebuilt from the database.
    await app.api.get(ProfileReadModel).forget(tenant.clientId, ids.archivedPreference);
  });
  afterAll(() => app.close());

  describe('Consent/Attributes', () => {
    it('finds profiles holding an active consent of a type carrying the attribute', async () => {
      expect(await found(consentSearch(['purpose', 'MARKETING']))).toEqual([ids.emailConsent]);
      expect(await found(consentSearch([' Purpose ', 'legal']))).toEqual([ids.profileConsent]);
      // Region EU: both types (values compare case-insensitively).
      expect(await found(consentSearch(['Region', 'EU']))).toEqual([
        ids.profileConsent,
        ids.emailConsent,
      ]);
    });

    it('requires every listed attribute on one consent type', async () => {
      expect(await found(consentSearch(['Purpose', 'Marketing'], ['Region', 'eu']))).toEqual([
        ids.emailConsent,
      ]);
      expect(await found(consentSearch(['Purpose', 'Legal'], ['Region', 'US']))).toEqual([]);
      expect(await found(consentSearch(['Purpose', 'Marketing'], ['Purpose', 'Legal']))).toEqual(
        [],
      );
    });

    it('answers an empty array when no consent type carries the attributes', async () => {
      expect(await found(consentSearch(['Purpose', 'Nothing']))).toEqual([]);
      // The other tenant's consent type is not this tenant's.
      expect(await found(consentSearch(['Purpose', 'Loyalty']))).toEqual([]);
    });

    it('keeps tenants apart', async () => {
      const mine = await search(consentSearch(['Purpose', 'Marketing']));
      expect(mine.body.map((p: any) => p.Emails[0].EmailAddress)).toEqual(['promo@example.com']);
      expect(mine.body[0].ProfileId).toBe(ids.emailConsent);
      const theirs = await search(consentSearch(['Purpose', 'Loyalty']), other);
      expect(theirs.status).toBe(200);
      expect(theirs.body.map((p: any) => p.ProfileId)).toEqual([ids.otherTenant]);
      expect(theirs.body[0].Consents.map((c: any) => c.ConsentType)).toEqual(['Loyalty']);
    });

    it('answers the same content as GET profile', async () => {
      const res = await search(consentSearch(['Purpose', 'Legal']));
      const get = await request(app.http)
        .get(`${base()}/Profile/${ids.profileConsent}`)
        .set('Authorization', await tenant.bearer());
      expect(res.body).toEqual([get.body]);
    });

    it('answers 400 naming a malformed or missing parameter', async () => {
      let res = await search('Consent/Attributes?attributes[0].key=Purpose&attributes[0].Value=x');
      expect(res.status).toBe(400);
      expect(res.body.Message).toContain('attributes[0].key');
      res = await search('Consent/Attributes?attributes[0].Key=Purpose');
      expect(res.status).toBe(400);
      expect(res.body.Message).toContain('attributes[0].Value');
      res = await search('Consent/Attributes?attributes[1].Key=Purpose&attributes[1].Value=x');
      expect(res.status).toBe(400);
      expect(res.body.Message).toContain('attributes');
      res = await search('Consent/Attributes');
      expect(res.status).toBe(400);
      expect(res.body.Message).toContain('attributes[0].Key');
    });
  });

  describe('Preference/Attributes', () => {
    it('finds profiles with an active preference holding every listed attribute', async () => {
      // The other tenant's profile holding Topic=News is not found here.
      expect(await found(preferenceSearch(['TOPIC', 'news']))).toEqual([ids.preferences]);
      expect(await found(preferenceSearch(['Topic', 'News'], ['Lang', 'en']))).toEqual([
        ids.preferences,
      ]);
      // Both attributes are held, but not by one preference.
      expect(await found(preferenceSearch(['Topic', 'Sport'], ['Lang', 'EN']))).toEqual([]);
      expect(await found(preferenceSearch(['Topic', 'Nothing']))).toEqual([]);
    });

    it('answers only the preferences holding all listed attributes, the rest as GET', async () => {
      const res = await search(preferenceSearch(['Topic', 'News']));
      expect(res.status).toBe(200);
      const [profile] = res.body;
      expect(profile.ProfilePreferences.map(label)).toEqual(['1']);
      expect(profile.Emails[0].EmailPreferences.map(label)).toEqual(['3']);

      const both = await search(preferenceSearch(['Topic', 'News'], ['Lang', 'EN']));
      expect(both.body[0].ProfilePreferences.map(label)).toEqual(['1']);
      expect(both.body[0].Emails[0].EmailPreferences).toEqual([]);

      const get = await request(app.http)
        .get(`${base()}/Profile/${ids.preferences}`)
        .set('Authorization', await tenant.bearer());
      expect(get.body.ProfilePreferences).toHaveLength(2);
      const narrowed = (body: any) => ({
        ...body,
        ProfilePreferences: undefined,
        Emails: body.Emails.map((email: any) => ({ ...email, EmailPreferences: undefined })),
      });
      expect(narrowed(profile)).toEqual(narrowed(get.body));
      expect(profile.ProfilePreferences[0]).toEqual(get.body.ProfilePreferences[0]);
    });

    it('does not match archived preferences or preferences of inactive contact elements', async () => {
      const matched = await found(preferenceSearch(['Topic', 'News']));
      expect(matched).not.toContain(ids.archivedPreference);
      expect(matched).not.toContain(ids.preferenceOnInactiveEmail);
      expect(matched).toEqual([ids.preferences]);
    });

    it('matches implied preferences only with implied=true', async () => {
      expect(await found(preferenceSearch(['Topic', 'Hints']))).toEqual([]);
      expect(await found(`${preferenceSearch(['Topic', 'Hints'])}&implied=true`)).toEqual([
        ids.implied,
      ]);
      expect(await found(`${preferenceSearch(['Topic', 'Hints'])}&implied=FALSE`)).toEqual([]);
    });

    it('answers 400 naming a malformed parameter', async () => {
      const res = await search('Preference/Attributes?attributes[0].Key=Topic&attributes[0]=x');
      expect(res.status).toBe(400);
      expect(res.body.Message).toContain('attributes[0]');
    });
  });

  describe('flags of every search', () => {
    it('hides implied preferences by default and shows them with implied=true', async () => {
      const plain = await search('Email?emailAddress=IMPLIED@example.com');
      expect(plain.status).toBe(200);
      expect(plain.body.map((p: any) => p.ProfileId)).toEqual([ids.implied]);
      expect(plain.body[0].ProfilePreferences.map(label)).toEqual(['6']);

      const implied = await search('Email?emailAddress=implied@example.com&implied=true');
      expect(implied.body[0].ProfilePreferences.map(label)).toEqual(['5', '6']);
    });

    it('accepts includeConsentHistory, with the same answer either way', async () => {
      const path = consentSearch(['Region', 'EU']);
      const byDefault = await search(path);
      const withHistory = await search(`${path}&includeConsentHistory=true`);
      const without = await search(`${path}&includeConsentHistory=false`);
      expect(byDefault.status).toBe(200);
      expect(byDefault.body).toHaveLength(2);
      expect(withHistory.body).toEqual(byDefault.body);
      expect(without.body).toEqual(byDefault.body);
    });

    it('answers 400 naming a flag that is not a boolean (empty included) and its value', async () => {
      for (const path of [
        'Email?emailAddress=implied@example.com&implied=yes',
        `${consentSearch(['Region', 'EU'])}&implied=1`,
        'Tags?tags[0]=x&includeConsentHistory=maybe',
        `${preferenceSearch(['Topic', 'News'])}&includeConsentHistory=`,
      ]) {
        const res = await search(path);
        const [, name, value] = /&(\w+)=([^&]*)$/.exec(path)!;
        expect(res.status).toBe(400);
        expect(res.body.Message).toContain(name);
        expect(res.body.Message).toContain(`"${value}"`);
      }
    });
  });

  it('answers 403 when more than 50 profiles match either attribute search, 200 with 50', async () => {
    await consentTypes(tenant, [{ TypeName: 'Bulk', Attributes: [{ Key: 'Batch', Value: '1' }] }]);
    const body = {
      Consents: [consent('Bulk')],
      ProfilePreferences: [preference('9', [['Batch', '1']])],
    };
    const created: number[] = [];
    for (let i = 0; i < 50; i++) created.push(await create(body));
    await applied(created);
    let res = await search(consentSearch(['Batch', '1']));
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(50);
    res = await search(preferenceSearch(['Batch', '1']));
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(50);

    await applied([await create(body)]);
    res = await search(consentSearch(['Batch', '1']));
    expect(res.status).toBe(403);
    expect(res.body.Message).toMatch(/more than 50/i);
    res = await search(preferenceSearch(['Batch', '1']));
    expect(res.status).toBe(403);
    expect(res.body.Message).toMatch(/more than 50/i);
  });
});
