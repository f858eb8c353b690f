import request from 'supertest';
import { configureTestTenant, testPreference, type TestPrograms } from '../harness/configuration';
import type { TestTenant } from '../harness/session';
import type { TestApp } from '../harness/test-app';
import { profileClient } from '../jobs/job-helpers';

type Body = Record<string, any>;

/** A hostile name: a stored name must never become markup on the page. */
export const HOSTILE = '<img src=x onerror="alert(1)">';

/**
 * A tenant configured as the other suites are (test/harness/configuration.ts), plus a
 * program with localised names (en-us, fr) and a hostile program name.
 */
export async function configureCentreTenant(
  app: TestApp,
  tenant: TestTenant,
  options: { hostile?: boolean } = {},
) {
  const { programs } = await configureTestTenant(app, tenant);
  const res = await request(app.http)
    .post(`/Profiles/v4/${tenant.clientId}/Programs`)
    .set('Authorization', await tenant.bearer())
    .send({
      Programs: [
        {
          Name: 'Deals',
          ProgramType: 'Marketing',
          Locales: [
            { ID: 'en-us', DisplayTags: [{ Key: 'Title', Value: 'Deals and offers' }] },
            { ID: 'fr', DisplayTags: [{ Key: 'Title', Value: 'Bons plans' }] },
          ],
          Filters: [
            {
              Name: 'Deals by email',
              ChannelID: 'Email',
              Locales: [
                { ID: 'en-us', DisplayTags: [{ Key: 'Label', Value: 'Deals by email' }] },
                { ID: 'fr-ca', DisplayTags: [{ Key: 'Label', Value: 'Bons plans par courriel' }] },
              ],
            },
          ],
        },
        {
          Name: options.hostile === false ? 'Service news' : HOSTILE,
          ProgramType: 'Informational',
          Filters: [
            {
              Name: options.hostile === false ? 'Service news by email' : `${HOSTILE} filter`,
              ChannelID: 'Email',
            },
          ],
        },
      ],
    });
  if (res.status !== 201)
    throw new Error(`POST Programs: ${res.status} ${JSON.stringify(res.body)}`);
  const [deals, hostile] = res.body.Programs as { Id: number; Filters: { ID: number }[] }[];
  return {
    programs,
    deals: {
      ProgramId: String(deals.Id),
      ChannelId: 'Email',
      FilterId: String(deals.Filters[0].ID),
    },
    hostile: {
      ProgramId: String(hostile.Id),
      ChannelId: 'Email',
      FilterId: String(hostile.Filters[0].ID),
    },
  };
}

/** A profile in fr-CA with an email (newsletter opt-in, weekly), a phone and Terms granted. */
export async function createCentreProfile(
  app: TestApp,
  tenant: TestTenant,
  programs: TestPrograms,
  email: string,
  firstName = HOSTILE,
): Promise<number> {
  const profiles = profileClient(app, tenant);
  const id = await profiles.create({
    DefaultLocale: 'fr-CA',
    CustomerName: { FirstName: firstName },
    Consents: [{ ConsentType: 'Terms', ConsentVersion: '1.0', ConsentStatus: 1 }],
    Emails: [
      {
        EmailAddress: email,
        EmailPreferences: [testPreference(programs.newsletter.email, { FrequencyId: 'Weekly' })],
      },
    ],
    PhoneNumbers: [{ PhoneNumber: '+1 555 010 0199' }],
  });
  await profiles.complete(id);
  return id;
}

/** POST .../PreferenceCentreLinks as the tenant. */
export async function createLinks(
  app: TestApp,
  tenant: TestTenant,
  profileId: number,
  body: object = {},
): Promise<Body> {
  const res = await request(app.http)
    .post(`/Profiles/v4/${tenant.clientId}/Profile/${profileId}/PreferenceCentreLinks`)
    .set('Authorization', await tenant.bearer())
    .send(body);
  if (res.status !== 200) throw new Error(`links: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as Body;
}

/** The path and query of an absolute link. */
export function pathOf(url: string): string {
  const parsed = new URL(url);
  return parsed.pathname + parsed.search;
}

/** The blocks of the page's choices and consents (one `<div class="choice">` each). */
export function choiceBlocks(html: string): string[] {
  return html
    .split('<div class="choice">')
    .slice(1)
    .map((block) => block.split('</div>')[0]);
}

/** The block holding all of `texts`. */
export function blockWith(html: string, ...texts: string[]): string {
  const found = choiceBlocks(html).filter((block) => texts.every((text) => block.includes(text)));
  if (found.length !== 1)
    throw new Error(`${found.length} choice blocks hold ${JSON.stringify(texts)}`);
  return found[0];
}

/** The choice id of a block (its hidden `shown` or `consentShown` value). */
export function idOf(block: string): string {
  const match = /name="(?:shown|consentShown)" value="([0-9a-f]{16})"/.exec(block);
  if (!match) throw new Error(`no id in ${block}`);
  return match[1];
}

export function isChecked(block: string): boolean {
  return /type="checkbox"[^>]* checked/.test(block);
}

/**
 * The form the page would post as it is: every shown id, every ticked box, every selected
 * frequency, then `changes` (null deletes a field).
 */
export function formOf(html: string, changes: Record<string, string | null> = {}): string {
  const form = html.split('<form id="choices"')[1].split('</form>')[0];
  const fields: [string, string][] = [];
  for (const match of form.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g))
    fields.push([match[1], match[2]]);
  for (const match of form.matchAll(
    /<input type="checkbox" id="[^"]+" name="([^"]+)" value="1"([^>]*)>/g,
  ))
    if (match[2].includes(' checked')) fields.push([match[1], '1']);
  for (const match of form.matchAll(/<select id="[^"]+" name="([^"]+)">(.*?)<\/select>/gs)) {
    const selected = /<option value="([^"]*)" selected>/.exec(match[2]);
    if (selected) fields.push([match[1], selected[1]]);
  }
  const params = new URLSearchParams();
  const deleted = new Set(
    Object.entries(changes)
      .filter(([, v]) => v === null)
      .map(([k]) => k),
  );
  for (const [name, value] of fields)
    if (!deleted.has(name) && !(name in changes)) params.append(name, value);
  for (const [name, value] of Object.entries(changes))
    if (value !== null) params.append(name, value);
  return params.toString();
}
