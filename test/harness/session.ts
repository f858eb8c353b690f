import { createHash, createHmac, randomBytes } from 'node:crypto';
import request from 'supertest';
import { TenantAdminService } from '@app/auth';
import { startTestApp, type TestApp } from './test-app';

export const TOKEN_URL = '/oauth2/v1/token';

export interface SignOptions {
  /** Scheme as sent (default CUSTOMAUTH3-HMAC-SHA256; any case). */
  scheme?: string;
  /** User id exactly as it appears in Credential and the message (default: the tenant's, URL-encoded). */
  userId?: string;
  /** Issued timestamp as sent (default: now, UTC, whole seconds). */
  timestamp?: string;
  /** Client id of the signed message (default: the tenant's). */
  clientId?: string;
}

export interface TestTenant {
  clientId: string;
  userId: string;
  apiHashKey: string;
  oauthClientId: string;
  oauthClientSecret: string;
  /** `Bearer <token>`, fetched once from the token endpoint and cached. */
  bearer(): Promise<string>;
  /** A complete CUSTOMAUTH3 Authorization header value. */
  signed(options?: SignOptions): string;
}

/** A client id no other test uses. */
export function uniqueClientId(prefix = 't'): string {
  return `${prefix}${randomBytes(6).toString('hex')}`;
}

/** Now as ISO 8601 in UTC, whole seconds (never ahead of the server's clock). */
export function nowTimestamp(offsetMs = 0): string {
  return new Date(Math.floor((Date.now() + offsetMs) / 1000) * 1000)
    .toISOString()
    .replace('.000Z', 'Z');
}

/**
 * Signs like a client of the service would, written here independently of the
 * service's own code: keyed `HMAC(key, ClientId:UserId:Timestamp)`, un-keyed
 * `HASH(Key:ClientId:UserId:Timestamp:Key)`, Base64.
 */
export function signCustomAuth(input: {
  scheme: string;
  clientId: string;
  userId: string;
  timestamp: string;
  key: string;
}): string {
  const match = /^CUSTOMAUTH3-(HMAC-)?SHA(256|384|512)$/i.exec(input.scheme);
  // An invalid scheme still gets a (meaningless) signature, for tests of that failure.
  const keyed = match ? match[1] !== undefined : true;
  const algorithm = `sha${match ? match[2] : '256'}`;
  const core = `${input.clientId}:${input.userId}:${input.timestamp}`;
  const signature = keyed
    ? createHmac(algorithm, input.key).update(core).digest('base64')
    : createHash(algorithm).update(`${input.key}:${core}:${input.key}`).digest('base64');
  return `${input.scheme} Credential=${input.userId}/${input.timestamp} Signature=${signature}`;
}

/** POSTs a token request (form-encoded); returns the supertest response. */
export function requestToken(
  app: TestApp,
  fields: Record<string, string | undefined>,
  authorization?: string,
): request.Test {
  const form = Object.fromEntries(
    Object.entries(fields).filter(([, value]) => value !== undefined),
  );
  const test = request(app.http).post(TOKEN_URL).type('form');
  if (authorization) void test.set('Authorization', authorization);
  return test.send(form);
}

/** A fresh (uncached) access token of a tenant's user, as `Bearer <token>`. */
export async function fetchBearer(
  app: TestApp,
  tenant: Pick<TestTenant, 'clientId' | 'oauthClientId' | 'oauthClientSecret'>,
  userId: string,
): Promise<string> {
  const response = await requestToken(app, {
    grant_type: 'client_credentials',
    scope: `${tenant.clientId}/${userId}`,
    client_id: tenant.oauthClientId,
    client_secret: tenant.oauthClientSecret,
  });
  if (response.status !== 200) {
    throw new Error(`token request failed: ${response.status} ${JSON.stringify(response.body)}`);
  }
  return `Bearer ${(response.body as { access_token: string }).access_token}`;
}

/** Creates a client (random id unless given) with its first user, in group Administrators. */
export async function createTestTenant(
  app: TestApp,
  options: { clientId?: string; userId?: string } = {},
): Promise<TestTenant> {
  const admin = app.api.get(TenantAdminService);
  const created = await admin.createClient({
    clientId: options.clientId ?? uniqueClientId(),
    userId: options.userId ?? 'admin',
  });
  let cached: Promise<string> | undefined;
  const tenant: TestTenant = {
    ...created,
    bearer() {
      cached ??= fetchBearer(app, tenant, tenant.userId).catch((error: unknown) => {
        cached = undefined;
        throw error;
      });
      return cached;
    },
    signed(sign: SignOptions = {}) {
      return signCustomAuth({
        scheme: sign.scheme ?? 'CUSTOMAUTH3-HMAC-SHA256',
        clientId: sign.clientId ?? tenant.clientId,
        userId: sign.userId ?? encodeURIComponent(tenant.userId),
        timestamp: sign.timestamp ?? nowTimestamp(),
        key: tenant.apiHashKey,
      });
    },
  };
  return tenant;
}

/** Requests to one client's paths (`/Profiles/v4/{clientId}<path>`) with one Authorization. */
export interface TenantApi {
  get(path: string): request.Test;
  post(path: string, body: unknown): request.Test;
  put(path: string, body: unknown): request.Test;
  /** Sends `operations` as a JSON Patch document (application/json-patch+json). */
  patch(path: string, operations: unknown): request.Test;
}

export function tenantApi(app: TestApp, clientId: string, authorization: string): TenantApi {
  const url = (path: string) => `/Profiles/v4/${clientId}${path}`;
  return {
    get: (path) => request(app.http).get(url(path)).set('Authorization', authorization),
    post: (path, body) =>
      request(app.http)
        .post(url(path))
        .set('Authorization', authorization)
        .send(body as object),
    put: (path, body) =>
      request(app.http)
        .put(url(path))
        .set('Authorization', authorization)
        .send(body as object),
    patch: (path, operations) =>
      request(app.http)
        .patch(url(path))
        .set('Authorization', authorization)
        .set('Content-Type', 'application/json-patch+json')
        .send(JSON.stringify(operations)),
  };
}

/**
 * A bearer token of user `reader` in group "Config readers", which may read the tenant's
 * configuration and nothing else (the permission tests of the configuration areas).
 */
export async function configReaderBearer(app: TestApp, tenant: TestTenant): Promise<string> {
  const admin = app.api.get(TenantAdminService);
  await admin.defineUserGroup(tenant.clientId, 'Config readers', [
    { area: 'configuration', access: 'read' },
  ]);
  await admin.addUser({ clientId: tenant.clientId, userId: 'reader', group: 'Config readers' });
  return fetchBearer(app, tenant, 'reader');
}

/** A suite's app and the tenant it works as, with the tenant administrator's bearer. */
export interface TenantApp {
  app: TestApp;
  tenant: TestTenant;
  auth: string;
  /** The API of `clientId` as `authorization`; by default the tenant's, as its administrator. */
  api(authorization?: string, clientId?: string): TenantApi;
}

/**
 * Registers the set-up and tear-down of a suite that works as one tenant: beforeAll starts an
 * app (see startTestApp) and creates the tenant, afterAll closes the app. The fields of the
 * answer are set once the suite's first beforeAll has run.
 */
export function useTenantApp(options: Parameters<typeof startTestApp>[0] = {}): TenantApp {
  const suite = {
    api: (authorization = suite.auth, clientId = suite.tenant.clientId) =>
      tenantApi(suite.app, clientId, authorization),
  } as TenantApp;
  beforeAll(async () => {
    suite.app = await startTestApp(options);
    suite.tenant = await createTestTenant(suite.app);
    suite.auth = await suite.tenant.bearer();
  });
  afterAll(async () => {
    await suite.app?.close();
  });
  return suite;
}
