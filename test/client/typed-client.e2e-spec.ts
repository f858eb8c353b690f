import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { TenantAdminService } from '@app/auth';
import {
  bearerAuth,
  createPcpClient,
  customAuth3,
  signCustomAuth3,
  waitForWrite,
  WriteFailedError,
  type BearerAuth,
  type PcpClient,
} from '../../clients/typescript/src';
import { createTestTenant, signCustomAuth, type TestTenant } from '../harness/session';
import { eventually, startTestApp, type TestApp } from '../harness/test-app';

const ROOT = join(__dirname, '..', '..');
const CLIENT_DIR = join(ROOT, 'clients', 'typescript');

/** An endpoint answering every subscription handshake with its challenge (JSON). */
async function startReceiver() {
  const server: Server = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    req.on('end', () => {
      const body = JSON.parse(text || '{}') as { Challenge?: string };
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ Challenge: body.Challenge ?? '' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * The typed client of clients/typescript (openapi-typescript types of the committed
 * openapi.json, openapi-fetch) against the running service on a real port: configuration,
 * a profile created, read, searched, patched and its history, its preference centre page
 * by the signed link and /.well-known/gpc.json (no credentials), one bulk import, one event
 * subscription, with both auth schemes. `npm run typecheck` compiles this file with the
 * client, so a call that does not match openapi.json fails CI (the @ts-expect-error lines
 * below prove the types refuse wrong calls).
 */
describe('Typed client (clients/typescript)', () => {
  let app: TestApp;
  let tenant: TestTenant;
  let baseUrl: string;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let bearer: BearerAuth;
  /** Authorized by Bearer tokens the helper fetches. */
  let client: PcpClient;
  /** Authorized by CUSTOMAUTH3 signatures. */
  let signed: PcpClient;
  /** Token requests the bearer helper made. */
  let tokenRequests = 0;
  /** The next this many API requests go out with a malformed token instead of the helper's. */
  let badAuthorizations = 0;
  let clientId: string;
  const crmId = `C-${randomBytes(4).toString('hex')}`;
  const email = `ann.${randomBytes(4).toString('hex')}@example.com`;
  let profileId: number;

  beforeAll(async () => {
    app = await startTestApp({ workers: 1, env: { EVENTS_ALLOW_PRIVATE_TARGETS: 'true' } });
    // Credentials as `npm run admin -- create-client` makes them.
    tenant = await createTestTenant(app);
    clientId = tenant.clientId;
    await app.api.listen(0, '127.0.0.1');
    baseUrl = `http://127.0.0.1:${(app.http.address() as AddressInfo).port}`;
    receiver = await startReceiver();

    /** Counts token requests; spoils the token of the next `badAuthorizations` requests. */
    const watched = (request: Request) => {
      if (new URL(request.url).pathname === '/oauth2/v1/token') tokenRequests++;
      else if (badAuthorizations > 0) {
        badAuthorizations--;
        request.headers.set('Authorization', 'Bearer not-a-token');
      }
      return fetch(request);
    };
    bearer = bearerAuth({
      baseUrl,
      clientId,
      userId: tenant.userId,
      oauthClientId: tenant.oauthClientId,
      oauthClientSecret: tenant.oauthClientSecret,
      fetch: watched,
    });
    client = createPcpClient({ baseUrl, auth: bearer, fetch: watched });
    signed = createPcpClient({
      baseUrl,
      auth: customAuth3({ clientId, userId: tenant.userId, apiHashKey: tenant.apiHashKey }),
    });
  });
  afterAll(async () => {
    await receiver?.close();
    await app?.close();
  });

  it('keeps src/schema.d.ts generated from the committed openapi.json', () => {
    // The command of `npm run client:types` (openapi:write runs it too), with --check.
    const check = spawnSync(
      process.execPath,
      [
        join(ROOT, 'node_modules', 'openapi-typescript', 'bin', 'cli.js'),
        join(ROOT, 'openapi.json'),
        '-c',
        join(CLIENT_DIR, 'redocly.yaml'),
        '--default-non-nullable',
        'false',
        '-o',
        join(CLIENT_DIR, 'src', 'schema.d.ts'),
        '--check',
      ],
      { cwd: CLIENT_DIR, encoding: 'utf8' },
    );
    expect(`${check.stdout}${check.stderr}`).not.toMatch(/not up-to-date/);
    expect(check.status).toBe(0);
  });

  it('signs CUSTOMAUTH3 exactly as the service verifies it', () => {
    const issuedAt = new Date('2026-01-31T12:00:00.400Z');
    for (const scheme of ['CUSTOMAUTH3-HMAC-SHA256', 'CUSTOMAUTH3-SHA512'] as const) {
      expect(
        signCustomAuth3({ scheme, clientId, userId: 'ann lee', apiHashKey: 'k', issuedAt }),
      ).toBe(
        signCustomAuth({
          scheme,
          clientId,
          userId: 'ann%20lee',
          timestamp: '2026-01-31T12:00:00Z',
          key: 'k',
        }),
      );
    }
  });

  it('configures the account (Bearer: the token is fetched once and reused)', async () => {
    const customerTypes = await client.POST('/Profiles/v4/{clientId}/CustomerTypes', {
      params: { path: { clientId } },
      body: {
        CustomerTypes: [
          { TypeName: 'Customer', LocalizedFields: [{ Locale: 'en-US', Name: 'Customer' }] },
        ],
      },
    });
    expect(customerTypes.response.status).toBe(201);
    expect(customerTypes.data?.CustomerTypes.map((type) => type.TypeName)).toEqual(['Customer']);

    const alternateIdTypes = await client.POST('/Profiles/v4/{clientId}/AlternateIdTypes', {
      params: { path: { clientId } },
      body: {
        AlternateIdTypes: [
          { TypeName: 'CRM', LocalizedFields: [{ Locale: 'en-US', Name: 'CRM' }] },
        ],
      },
    });
    expect(alternateIdTypes.response.status).toBe(201);
    const emailTypes = await client.POST('/Profiles/v4/{clientId}/EmailTypes', {
      params: { path: { clientId } },
      body: {
        EmailTypes: [
          { TypeName: 'Personal', LocalizedFields: [{ Locale: 'en-US', Name: 'Personal' }] },
        ],
      },
    });
    expect(emailTypes.response.status).toBe(201);
    expect(tokenRequests).toBe(1);
  });

  it('creates a profile (CUSTOMAUTH3), waits for its write and reads it (both schemes)', async () => {
    const created = await signed.POST('/Profiles/v4/{clientId}/Profile', {
      params: { path: { clientId } },
      body: {
        CustomerType: 'Customer',
        CustomerName: { FirstName: 'Ann', LastName: 'Lee' },
        Emails: [{ EmailAddress: email, EmailAddressType: 'Personal' }],
        AlternateIds: [{ AlternateIdType: 'CRM', AlternateId: crmId }],
      },
    });
    expect(created.response.status).toBe(202);
    expect(created.data?.UpdateStatus).toBe('Pending Update');
    profileId = created.data!.ProfileId;

    const applied = await waitForWrite(signed, {
      clientId,
      profileId,
      submittedUtcTime: created.data!.SubmittedUtcTime,
    });
    expect(applied).toMatchObject({
      ProfileId: profileId,
      UpdateStatus: 'Complete',
      CustomerName: { FirstName: 'Ann', LastName: 'Lee' },
    });

    const read = await client.GET('/Profiles/v4/{clientId}/Profile/{profileId}', {
      params: { path: { clientId, profileId } },
    });
    expect(read.response.status).toBe(200);
    expect(read.data?.Emails?.map((entry) => entry.EmailAddress)).toEqual([email]);
  });

  it('searches by email', async () => {
    const found = await client.GET('/Profiles/v4/{clientId}/Profile/Email', {
      params: { path: { clientId }, query: { emailAddress: email } },
    });
    expect(found.response.status).toBe(200);
    expect(found.data?.map((profile) => profile.ProfileId)).toEqual([profileId]);
  });

  it('patches the profile and reads its history', async () => {
    const patched = await client.PATCH('/Profiles/v4/{clientId}/Profile/{profileId}', {
      params: { path: { clientId, profileId } },
      body: [{ op: 'replace', path: '/CustomerName/FirstName', value: 'Anna' }],
    });
    expect([200, 202]).toContain(patched.response.status);
    const after = await waitForWrite(client, { clientId, profileId });
    expect(after.CustomerName?.FirstName).toBe('Anna');

    const history = await client.GET(
      '/Profiles/v4/{clientId}/Profile/{profileId}/History/StandardFields',
      { params: { path: { clientId, profileId } } },
    );
    expect(history.response.status).toBe(200);
    const firstNames = (history.data ?? []).map((entry) => entry.CustomerName?.FirstName);
    expect(firstNames).toEqual(expect.arrayContaining(['Ann', 'Anna']));

    const updates = await signed.GET('/Profiles/v4/{clientId}/Profile/{profileId}/Updates', {
      params: { path: { clientId, profileId } },
    });
    expect(updates.data?.Updates.map((update) => [update.Operation, update.Status])).toEqual([
      ['patch', 'Complete'],
      ['create', 'Complete'],
    ]);
  });

  it('opens the preference centre by its signed link, and reads /.well-known/gpc.json', async () => {
    const links = await client.POST(
      '/Profiles/v4/{clientId}/Profile/{profileId}/PreferenceCentreLinks',
      { params: { path: { clientId, profileId } }, body: {} },
    );
    expect(links.response.status).toBe(200);
    const url = new URL(links.data!.Url);
    const link = (name: string) => url.searchParams.get(name)!;
    // No API credential: the link's signed query parameters (the document's link schemes).
    const anonymous = createPcpClient({ baseUrl });
    const page = await anonymous.GET('/Profiles/v4/{clientId}/PreferenceCentre', {
      params: {
        path: { clientId },
        query: { p: link('p'), e: link('e'), s: link('s') },
        header: { 'Sec-GPC': '1' },
      },
      parseAs: 'text',
    });
    expect(page.response.status).toBe(200);
    expect(page.data).toContain('Your communication preferences');
    const gpc = await anonymous.GET('/.well-known/gpc.json');
    expect(gpc.data).toEqual({
      gpc: true,
      lastUpdate: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
    });
  });

  it('answers typed errors: 400 naming the field, 404 for a missing profile', async () => {
    const missing = await client.GET('/Profiles/v4/{clientId}/Profile/{profileId}', {
      params: { path: { clientId, profileId: 2147483647 } },
    });
    expect(missing.response.status).toBe(404);
    expect(missing.data).toBeUndefined();
    const refused = await client.POST('/Profiles/v4/{clientId}/Profile', {
      params: { path: { clientId } },
      body: { CustomerType: 'Nobody' },
    });
    expect(refused.response.status).toBe(400);
    expect(JSON.stringify(refused.error)).toContain('Nobody');
  });

  it('reports a write the worker refused (waitForWrite throws WriteFailedError)', async () => {
    // A JSON Patch whose test fails is refused when applied: all or nothing.
    const refused = await client.PATCH('/Profiles/v4/{clientId}/Profile/{profileId}', {
      params: { path: { clientId, profileId } },
      body: [
        { op: 'replace', path: '/CustomerName/FirstName', value: 'Zed' },
        { op: 'test', path: '/CustomerName/LastName', value: 'Nope' },
      ],
    });
    expect([400, 202]).toContain(refused.response.status);
    const failure = await waitForWrite(client, { clientId, profileId }).catch(
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(WriteFailedError);
    expect((failure as WriteFailedError).update).toMatchObject({
      Operation: 'patch',
      Status: 'Failed',
    });
  });

  it('runs one bulk import: Initiate, Stage, Execute, Status', async () => {
    const imported = `B-${randomBytes(4).toString('hex')}`;
    const initiated = await client.POST('/Profiles/v4/{clientId}/Bulk/Import', {
      params: { path: { clientId } },
      body: { Name: 'Typed client', MatchCriteria: 'AlternateIdType', MatchValue: 'CRM' },
    });
    expect(initiated.response.status).toBe(201);
    const accessToken = initiated.data!.AccessToken;

    const staged = await client.POST('/Profiles/v4/{clientId}/Bulk/Import/{accessToken}/Stage', {
      params: { path: { clientId, accessToken } },
      body: [
        {
          CustomerType: 'Customer',
          CustomerName: { FirstName: 'Bea' },
          AlternateIds: [{ AlternateIdType: 'CRM', AlternateId: imported }],
        },
      ],
    });
    expect(staged.data).toMatchObject({ Status: 'Staging', ValidationSuccessful: 1 });

    const executed = await signed.POST(
      '/Profiles/v4/{clientId}/Bulk/Import/{accessToken}/Execute',
      { params: { path: { clientId, accessToken } } },
    );
    expect(executed.response.status).toBe(202);
    expect(executed.data?.Status).toBe('Queued');

    const ended = await eventually(async () => {
      const { data } = await client.GET('/Profiles/v4/{clientId}/Bulk/Import/{accessToken}', {
        params: { path: { clientId, accessToken } },
      });
      return data && ['Completed', 'Failed'].includes(data.Status) ? data : undefined;
    });
    expect(ended).toMatchObject({ Status: 'Completed', Processed: 1, Exceptions: 0 });

    const holder = await eventually(async () => {
      const { data } = await client.GET('/Profiles/v4/{clientId}/Profile/AlternateId', {
        params: { path: { clientId }, query: { alternateIdType: 'CRM', alternateId: imported } },
      });
      return data?.UpdateStatus === 'Complete' ? data : undefined;
    });
    expect(holder.CustomerName?.FirstName).toBe('Bea');
  });

  it('creates an event subscription, validated by its endpoint', async () => {
    const created = await client.POST('/Profiles/v4/{clientId}/Events/Subscriptions', {
      params: { path: { clientId } },
      body: {
        Name: 'Typed client',
        Url: receiver.url,
        Subscriptions: [{ Entity: 'Profile', EventType: 'profile.created' }],
        DeliveryFormat: 'CloudEvents',
      },
    });
    expect(created.response.status).toBe(201);
    expect(created.data?.DeliveryFormat).toBe('CloudEvents');
    const subscriptionId = created.data!.SubscriptionId;
    const validated = await eventually(async () => {
      const { data } = await signed.GET(
        '/Profiles/v4/{clientId}/Events/Subscriptions/{subscriptionId}',
        { params: { path: { clientId, subscriptionId } } },
      );
      return data?.ValidationStatus === 'Validated' ? data : undefined;
    });
    expect(validated).toMatchObject({ SubscriptionId: subscriptionId, Url: receiver.url });
  });

  it('reads a consent change as a Kantara receipt and an ISO 27560 record (typed)', async () => {
    const types = await signed.POST('/Profiles/v4/{clientId}/ConsentTypes', {
      params: { path: { clientId } },
      body: {
        ConsentTypes: [
          {
            TypeName: 'Terms',
            LocalizedFields: [{ Locale: 'en-US', Name: 'Terms' }],
            Versions: [
              {
                ConsentVersion: '1.0',
                LocalizedFields: [{ Locale: 'en-US', Name: 'Terms', ConsentLanguage: 'I agree' }],
              },
            ],
          },
        ],
      },
    });
    expect(types.response.status).toBe(201);
    const merged = await signed.POST('/Profiles/v4/{clientId}/Profile/{profileId}', {
      params: { path: { clientId, profileId } },
      body: { Consents: [{ ConsentType: 'Terms', ConsentVersion: '1.0', ConsentStatus: 1 }] },
    });
    expect(merged.response.status).toBe(202);
    await waitForWrite(signed, { clientId, profileId });
    const listed = await signed.GET('/Profiles/v4/{clientId}/Profile/{profileId}/ConsentReceipts', {
      params: { path: { clientId, profileId } },
    });
    const entryId = listed.data!.Entries.find((entry) => entry.ConsentType === 'Terms')!.EntryId;
    const path = { clientId, profileId, entryId };
    const kantara = await signed.GET(
      '/Profiles/v4/{clientId}/Profile/{profileId}/ConsentReceipts/{entryId}/Kantara',
      { params: { path } },
    );
    expect(kantara.data?.Receipt.version).toBe('KI-CR-v1.1.0');
    expect(kantara.data?.Receipt.services[0].service).toBe('Terms');
    expect(kantara.data?.Jws.split('.')).toHaveLength(3);
    const iso = await signed.GET(
      '/Profiles/v4/{clientId}/Profile/{profileId}/ConsentReceipts/{entryId}/ISO27560',
      { params: { path } },
    );
    expect(iso.data?.Record['@type']).toBe('dpv:ConsentRecord');
    expect(iso.data?.Record['dct:identifier']).toBe(kantara.data?.Receipt.consentReceiptID);
  });

  it('fetches a new token and sends the request again once after a 401', async () => {
    const before = tokenRequests;
    // The next request goes out with a revoked token: the service answers 401.
    const dead = await bearer.token();
    await app.api.get(TenantAdminService).revokeToken({ token: dead });
    const read = await client.GET('/Profiles/v4/{clientId}/Profile/{profileId}', {
      params: { path: { clientId, profileId } },
    });
    expect(read.response.status).toBe(200);
    expect(tokenRequests).toBe(before + 1);
    expect(await bearer.token()).not.toBe(dead);

    // Sent again once only: a request refused twice answers the second 401 (no loop).
    badAuthorizations = 2;
    const refused = await client.GET('/Profiles/v4/{clientId}/Profile/{profileId}', {
      params: { path: { clientId, profileId } },
    });
    expect(refused.response.status).toBe(401);
    expect(badAuthorizations).toBe(0);
    expect(tokenRequests).toBe(before + 2);
  });

  it('fetches a new token shortly before the cached one expires', async () => {
    let clock = Date.now();
    let requests = 0;
    const timed = bearerAuth({
      baseUrl,
      clientId,
      userId: tenant.userId,
      oauthClientId: tenant.oauthClientId,
      oauthClientSecret: tenant.oauthClientSecret,
      now: () => clock,
      fetch: (request) => {
        requests++;
        return fetch(request);
      },
    });
    const first = await timed.token();
    const claims = JSON.parse(Buffer.from(first.split('.')[1], 'base64url').toString()) as {
      exp: number;
      iat: number;
    };
    clock += (claims.exp - claims.iat - 90) * 1000;
    expect(await timed.token()).toBe(first);
    expect(requests).toBe(1);
    // Within the last minute of its lifetime: a new token.
    clock += 60_000;
    await timed.token();
    expect(requests).toBe(2);
  });

  it('refuses wrong calls at compile time', () => {
    const wrongPath = { clientId, profileId: 'one' };
    const calls: Array<() => unknown> = [
      () =>
        client.GET('/Profiles/v4/{clientId}/Profile/{profileId}', {
          // @ts-expect-error: profileId is a number
          params: { path: wrongPath },
        }),
      // @ts-expect-error: no such path
      () => client.GET('/Profiles/v4/{clientId}/Profiles', { params: { path: { clientId } } }),
      () =>
        client.POST('/Profiles/v4/{clientId}/Profile', {
          params: { path: { clientId } },
          // @ts-expect-error: CustomerType is a string
          body: { CustomerType: 1 },
        }),
    ];
    expect(calls).toHaveLength(3);
  });
});
