import request from 'supertest';
import type { TestPrograms } from '../harness/configuration';
import { createTestTenant, type TestTenant } from '../harness/session';
import { startTestApp, type TestApp } from '../harness/test-app';
import { profileClient } from '../jobs/job-helpers';
import {
  blockWith,
  configureCentreTenant,
  createCentreProfile,
  createLinks,
  formOf,
  HOSTILE,
  idOf,
  isChecked,
  pathOf,
} from './centre-helpers';

type Body = Record<string, any>;
const DAY_MS = 24 * 3600 * 1000;

/*
 * The preference centre (docs/preference-centre.md): signed links, the page, saving through
 * the ordinary write path, unsubscribe-all and RFC 8058 one-click unsubscribe, refused links.
 */
describe('Preference centre', () => {
  let app: TestApp;
  let tenant: TestTenant;
  let other: TestTenant;
  let programs: TestPrograms;
  let deals: { ProgramId: string; ChannelId: string; FilterId: string };
  let profiles: ReturnType<typeof profileClient>;

  const open = (path: string) => request(app.http).get(path);
  const post = (path: string, form: string) =>
    request(app.http)
      .post(path)
      .set('Content-Type', 'application/x-www-form-urlencoded')
      .send(form);
  const emailPreference = (profile: Body, programId: string) =>
    (profile.Emails[0].EmailPreferences as Body[]).find((p) => p.ProgramId === programId);

  beforeAll(async () => {
    app = await startTestApp();
    tenant = await createTestTenant(app);
    other = await createTestTenant(app);
    ({ programs, deals } = await configureCentreTenant(app, tenant));
    profiles = profileClient(app, tenant);
  });
  afterAll(() => app?.close());

  it('makes signed links for a profile, with the List-Unsubscribe headers', async () => {
    const id = await createCentreProfile(app, tenant, programs, 'links@example.com');
    const links = await createLinks(app, tenant, id, { ExpiresInDays: 7 });
    const page = new URL(links.Url);
    expect(page.pathname).toBe(`/Profiles/v4/${tenant.clientId}/PreferenceCentre`);
    expect(page.searchParams.get('p')).toBe(String(id));
    expect(page.searchParams.get('s')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const expires = Number(page.searchParams.get('e')) * 1000;
    expect(Math.abs(expires - (Date.now() + 7 * DAY_MS))).toBeLessThan(60_000);
    expect(new Date(links.ExpiresAt).getTime()).toBe(expires);
    const unsubscribe = new URL(links.UnsubscribeUrl);
    expect(unsubscribe.pathname).toBe(
      `/Profiles/v4/${tenant.clientId}/PreferenceCentre/Unsubscribe`,
    );
    expect(unsubscribe.searchParams.get('u')).toBe('all');
    expect(links.ListUnsubscribe).toBe(`<${links.UnsubscribeUrl}>`);
    expect(links.ListUnsubscribePost).toBe('List-Unsubscribe=One-Click');
    // {}: the defaults (PREFERENCE_CENTRE_LINK_DAYS, 30 days; unsubscribe from all).
    const bare = await request(app.http)
      .post(`/Profiles/v4/${tenant.clientId}/Profile/${id}/PreferenceCentreLinks`)
      .set('Authorization', await tenant.bearer())
      .send({})
      .expect(200);
    expect(Math.abs(Date.parse(bare.body.ExpiresAt) - (Date.now() + 30 * DAY_MS))).toBeLessThan(
      60_000,
    );
    expect(bare.body.UnsubscribeScope).toBe('all');
  });

  it('refuses links for unknown profiles, other tenants, bad bodies and without credentials', async () => {
    const id = await createCentreProfile(app, tenant, programs, 'refuse@example.com');
    const path = (clientId: string, profileId: number) =>
      `/Profiles/v4/${clientId}/Profile/${profileId}/PreferenceCentreLinks`;
    await request(app.http).post(path(tenant.clientId, id)).send({}).expect(401);
    await request(app.http)
      .post(path(tenant.clientId, 999999))
      .set('Authorization', await tenant.bearer())
      .send({})
      .expect(404);
    // Another tenant's profile is a 404 like a missing one.
    await request(app.http)
      .post(path(other.clientId, id))
      .set('Authorization', await other.bearer())
      .send({})
      .expect(404);
    const bad = await request(app.http)
      .post(path(tenant.clientId, id))
      .set('Authorization', await tenant.bearer())
      .send({ ProgramId: '99999' });
    expect(bad.status).toBe(400);
    expect(bad.body.Message).toContain('ProgramId (value "99999")');
    const long = await request(app.http)
      .post(path(tenant.clientId, id))
      .set('Authorization', await tenant.bearer())
      .send({ ExpiresInDays: 5000 });
    expect(long.status).toBe(400);
    expect(long.body.Message).toContain('ExpiresInDays');
  });

  it('shows the choices, localised, escaped, with consents and the page headers', async () => {
    const id = await createCentreProfile(app, tenant, programs, 'show@example.com');
    const links = await createLinks(app, tenant, id);
    const res = await open(pathOf(links.Url)).expect(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['content-security-policy']).toMatch(/default-src 'none'/);
    expect(res.headers['content-security-policy']).toMatch(/script-src 'nonce-[^']+'/);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    const html = res.text;
    expect(html).toContain('<html lang="fr-CA">');
    expect(html).toContain('<a class="skip" href="#content">');
    // Localised by DefaultLocale fr-CA: the program's fr title, the filter's fr-ca label.
    expect(html).toContain('<legend>Bons plans</legend>');
    expect(html).toContain('Bons plans par courriel');
    // The newsletter (no locales): its configured names; opted in on the email, weekly.
    const news = blockWith(html, 'News by email', 'show@example.com');
    expect(isChecked(news)).toBe(true);
    expect(news).toMatch(/<option value="Weekly" selected>/);
    expect(isChecked(blockWith(html, 'News by text', '+1 555 010 0199'))).toBe(false);
    // Solicit at profile level; Mail not shown (no address); DNC programs not shown.
    expect(html).toContain('News in the app');
    expect(html).not.toContain('News by mail');
    expect(html).not.toContain('No email');
    // Every checkbox has its label.
    for (const match of html.matchAll(/<input type="checkbox" id="([^"]+)"/g))
      expect(html).toContain(`<label for="${match[1]}">`);
    // Consents: Terms granted, with its version's text and the version.
    const terms = blockWith(html, 'Terms', 'I agree');
    expect(isChecked(terms)).toBe(true);
    expect(terms).toContain('(version 1.0)');
    // No stored name becomes markup.
    expect(html).not.toContain(HOSTILE);
    expect(html).toContain('&lt;img src=x onerror=&quot;alert(1)&quot;&gt;');
  });

  it('refuses altered links with a 403 page and expired ones with a 410 page, showing no data', async () => {
    const id = await createCentreProfile(app, tenant, programs, 'refused@example.com');
    const links = await createLinks(app, tenant, id, { ExpiresInDays: 1 });
    const url = new URL(links.Url);
    const altered = (name: string, value: string) => {
      const copy = new URL(url);
      copy.searchParams.set(name, value);
      return pathOf(copy.toString());
    };
    const other = await createCentreProfile(app, tenant, programs, 'victim@example.com');
    const s = url.searchParams.get('s')!;
    for (const path of [
      altered('p', String(other)),
      altered('e', String(Number(url.searchParams.get('e')) + 3600)),
      altered('s', (s[0] === 'A' ? 'B' : 'A') + s.slice(1)),
      altered('s', 'short'),
      pathOf(links.Url).replace('&s=', '&x='),
      // The same link under another client's path.
      pathOf(links.Url).replace(tenant.clientId, other === id ? 'x' : 'zz-other-client'),
      // A page link is not an unsubscribe link.
      pathOf(links.Url).replace('/PreferenceCentre?', '/PreferenceCentre/Unsubscribe?'),
    ]) {
      const res = await open(path);
      expect({ path, status: res.status }).toEqual({ path, status: 403 });
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.text).toContain('This link is not valid');
      expect(res.text).not.toMatch(/refused@example\.com|victim@example\.com|News by/);
    }
    // Posting with an altered link changes nothing either.
    const before = await profiles.get(other);
    await post(altered('p', String(other)), 'action=unsubscribe-all').expect(403);
    expect((await profiles.get(other)).Emails).toEqual(before.Emails);

    app.advance(2 * DAY_MS);
    try {
      const res = await open(pathOf(links.Url));
      expect(res.status).toBe(410);
      expect(res.text).toContain('This link has expired');
      expect(res.text).not.toContain('refused@example.com');
      await post(pathOf(links.Url), 'action=unsubscribe-all').expect(410);
      // Altered and expired: altered wins (403).
      expect((await open(altered('p', String(other)))).status).toBe(403);
    } finally {
      app.advance(-2 * DAY_MS);
    }
    await open(pathOf(links.Url)).expect(200);
  });

  it('saves through the ordinary write path: 303 back to the page, history by PreferenceCentre', async () => {
    const id = await createCentreProfile(app, tenant, programs, 'save@example.com');
    const links = await createLinks(app, tenant, id);
    const path = pathOf(links.Url);
    const html = (await open(path).expect(200)).text;
    const news = idOf(blockWith(html, 'News by email', 'save@example.com'));
    const dealsId = idOf(blockWith(html, 'Bons plans par courriel', 'save@example.com'));
    const form = formOf(html, {
      [`in.${dealsId}`]: '1',
      [`freq.${news}`]: 'Monthly',
    });
    const saved = await post(path, form).expect(303);
    expect(saved.headers.location).toBe(`${path}&notice=saved`);

    const profile = await profiles.complete(id);
    expect(emailPreference(profile, deals.ProgramId)).toMatchObject({
      PreferenceType: 1,
      MatchType: 'Expressed',
    });
    expect(emailPreference(profile, programs.newsletter.email.ProgramId)).toMatchObject({
      PreferenceType: 1,
      FrequencyId: 'Monthly',
    });
    // Recorded as a write of the user PreferenceCentre.
    const history = await profiles.history(id, 'Preferences');
    const byCentre = JSON.stringify(history);
    expect(byCentre).toContain('"UserId":"PreferenceCentre","SourceId":"PreferenceCentre"');
    const updates = await request(app.http)
      .get(`/Profiles/v4/${tenant.clientId}/Profile/${id}/Updates`)
      .set('Authorization', await tenant.bearer())
      .expect(200);
    expect(JSON.stringify(updates.body)).toContain('PreferenceCentre');

    // The page after the redirect shows the notice and the new choices.
    const after = (await open(saved.headers.location).expect(200)).text;
    expect(after).toContain('role="status">Your choices have been saved.');
    expect(isChecked(blockWith(after, 'Bons plans par courriel', 'save@example.com'))).toBe(true);
    expect(blockWith(after, 'News by email', 'save@example.com')).toMatch(
      /<option value="Monthly" selected>/,
    );

    // Unticking opts out; posting the same form again changes nothing.
    const optOut = formOf(after, { [`in.${news}`]: null });
    await post(path, optOut).expect(303);
    expect(
      emailPreference(await profiles.complete(id), programs.newsletter.email.ProgramId),
    ).toMatchObject({ PreferenceType: 2 });
    const again = await post(path, optOut).expect(303);
    expect(again.headers.location).toBe(`${path}&notice=unchanged`);

    // Withdrawing a consent: Revoked (3).
    const page = (await open(path).expect(200)).text;
    const terms = idOf(blockWith(page, 'Terms', 'I agree'));
    const withdrawn = await post(path, formOf(page, { [`consent.${terms}`]: null }));
    if (withdrawn.status !== 303) throw new Error(withdrawn.text.split('role="alert"')[1]);
    const consents = (await profiles.complete(id)).Consents as Body[];
    expect(consents.find((c) => c.ConsentType === 'Terms')).toMatchObject({ ConsentStatus: 3 });
  });

  it('unsubscribes from everything on the page', async () => {
    const id = await createCentreProfile(app, tenant, programs, 'all@example.com');
    const path = pathOf((await createLinks(app, tenant, id)).Url);
    const res = await post(path, 'action=unsubscribe-all');
    if (res.status !== 303) throw new Error(res.text.split('role="alert"')[1]);
    expect(res.headers.location).toBe(`${path}&notice=unsubscribed`);
    const profile = await profiles.complete(id);
    const preferences = [
      ...(profile.Emails[0].EmailPreferences as Body[]),
      ...(profile.PhoneNumbers[0].PhonePreferences as Body[]),
      ...(profile.ProfilePreferences as Body[]),
    ];
    expect(preferences.length).toBeGreaterThanOrEqual(5);
    expect(preferences.every((p) => p.PreferenceType === 2)).toBe(true);
    const html = (await open(res.headers.location).expect(200)).text;
    expect(html).toContain('You have been unsubscribed from everything');
    expect(html).not.toMatch(/type="checkbox"[^>]*name="in\.[^"]+"[^>]* checked/);
  });

  it('unsubscribes with one click (RFC 8058): 200, no redirect, only the named program', async () => {
    const id = await createCentreProfile(app, tenant, programs, 'oneclick@example.com');
    // Opted in to Deals too, so the scope shows.
    await request(app.http)
      .post(`/Profiles/v4/${tenant.clientId}/Profile/${id}`)
      .set('Authorization', await tenant.bearer())
      .send({
        Emails: [
          {
            EmailAddress: 'oneclick@example.com',
            EmailPreferences: [{ ...deals, PreferenceType: 1 }],
          },
        ],
      })
      .expect(202);
    await profiles.complete(id);
    const links = await createLinks(app, tenant, id, {
      ProgramId: programs.newsletter.email.ProgramId,
      ChannelId: 'Email',
    });
    const path = pathOf(links.UnsubscribeUrl);
    expect(new URL(links.UnsubscribeUrl).searchParams.get('u')).toBe(
      `${programs.newsletter.email.ProgramId}:Email`,
    );

    // Opening it (a scanner, a person) changes nothing: a page with a button.
    const opened = await open(path).expect(200);
    expect(opened.text).toContain('name="List-Unsubscribe" value="One-Click"');
    // A POST without the RFC 8058 body changes nothing.
    await post(path, 'foo=bar').expect(400);
    let profile = await profiles.complete(id);
    expect(emailPreference(profile, programs.newsletter.email.ProgramId)!.PreferenceType).toBe(1);

    const res = await post(path, 'List-Unsubscribe=One-Click');
    expect(res.status).toBe(200);
    expect(res.headers.location).toBeUndefined();
    expect(res.text).toContain('You are unsubscribed');
    profile = await profiles.complete(id);
    expect(emailPreference(profile, programs.newsletter.email.ProgramId)!.PreferenceType).toBe(2);
    // Other programs and channels are left as they were.
    expect(emailPreference(profile, deals.ProgramId)!.PreferenceType).toBe(1);
    expect(profile.PhoneNumbers[0].PhonePreferences).toEqual([]);
    // Again: still 200, nothing more written.
    await post(path, 'List-Unsubscribe=One-Click').expect(200);

    // The scope is signed: changing u is an altered link.
    const widened = new URL(links.UnsubscribeUrl);
    widened.searchParams.set('u', 'all');
    await post(pathOf(widened.toString()), 'List-Unsubscribe=One-Click').expect(403);
    // An unsubscribe link does not open the page.
    await open(path.replace('/PreferenceCentre/Unsubscribe?', '/PreferenceCentre?')).expect(403);
  });
});
