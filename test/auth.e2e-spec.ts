import jwt from 'jsonwebtoken';
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { AuthSettings, TenantAdminService } from '@app/auth';
import {
  createTestTenant,
  fetchBearer,
  nowTimestamp,
  requestToken,
  signCustomAuth,
  uniqueClientId,
  type TestTenant,
} from './harness/session';
import { startTestApp, type TestApp } from './harness/test-app';

/** A protected route: area configuration, access read. */
const statusPath = (clientId: string) => `/Profiles/v4/${clientId}/ConsentStatus`;

const INVALID_SCHEME = /must contain CUSTOMAUTH3- or CUSTOMAUTH3-HMAC-/;

describe('authentication', () => {
  let app: TestApp;
  let admin: TenantAdminService;
  let tenant: TestTenant;
  let realm: string;

  const get = (clientId: string, authorization?: string) => {
    const test = request(app.http).get(statusPath(clientId));
    return authorization === undefined ? test : test.set('Authorization', authorization);
  };

  beforeAll(async () => {
    app = await startTestApp({ workers: 0 });
    admin = app.api.get(TenantAdminService);
    tenant = await createTestTenant(app);
    realm = app.api.get(AuthSettings).authRealm;
  });

  afterAll(async () => {
    await app?.close();
  });

  it('the test harness refuses a second live api in one file (passport strategies are process-wide)', async () => {
    await expect(startTestApp({ workers: 0 })).rejects.toThrow(/still running/);
    // The refusal left the first api alone.
    await get(tenant.clientId, await tenant.bearer()).expect(200);
  });

  describe('token endpoint', () => {
    const valid = () => ({
      grant_type: 'client_credentials',
      scope: `${tenant.clientId}/${tenant.userId}`,
      client_id: tenant.oauthClientId,
      client_secret: tenant.oauthClientSecret,
    });

    const expectTokenError = async (
      response: request.Response,
      error: string,
      description: string,
    ): Promise<void> => {
      expect(response.status).toBe(400);
      expect(response.body).toEqual({
        error,
        error_description: description,
        Message: `${error}: ${description}`,
      });
    };

    it('issues a Bearer JWT for credentials in the body', async () => {
      const response = await requestToken(app, valid());
      expect(response.status).toBe(200);
      expect(response.headers['cache-control']).toBe('no-store');
      expect(response.body).toEqual({
        access_token: expect.any(String),
        token_type: 'Bearer',
        expires_in: 3600,
        scope: `${tenant.clientId}/${tenant.userId}`,
      });
      const claims = jwt.verify(response.body.access_token, app.api.get(AuthSettings).jwtSecret, {
        algorithms: ['HS256'],
      }) as jwt.JwtPayload;
      expect(claims).toMatchObject({
        sub: tenant.userId,
        cid: tenant.clientId,
        scope: `${tenant.clientId}/${tenant.userId}`,
      });
      expect(claims.jti).toEqual(expect.any(String));
      expect(claims.exp! - claims.iat!).toBe(3600);

      const call = await get(tenant.clientId, `Bearer ${response.body.access_token}`);
      expect(call.status).toBe(200);
      expect(call.body.ConsentStatus).toEqual(expect.any(Array));
    });

    it('accepts credentials in a Basic authorization header', async () => {
      const { client_id, client_secret, ...rest } = valid();
      const basic = `Basic ${Buffer.from(`${client_id}:${client_secret}`).toString('base64')}`;
      const response = await requestToken(app, rest, basic);
      expect(response.status).toBe(200);
      expect(response.body.token_type).toBe('Bearer');
    });

    it('missing grant type', async () => {
      await expectTokenError(
        await requestToken(app, { ...valid(), grant_type: undefined }),
        'invalid_request',
        'required parameters (grant_type) is missing',
      );
      const empty = await request(app.http).post('/oauth2/v1/token');
      await expectTokenError(
        empty,
        'invalid_request',
        'required parameters (grant_type) is missing',
      );
    });

    it('unsupported grant type', async () => {
      await expectTokenError(
        await requestToken(app, { ...valid(), grant_type: 'password' }),
        'invalid_request',
        'unsupported value for field (grant_type)',
      );
    });

    it('missing client id', async () => {
      await expectTokenError(
        await requestToken(app, { ...valid(), client_id: undefined }),
        'invalid_client',
        'required parameter (client_id) is missing',
      );
    });

    it('incorrect client id', async () => {
      const unknown = 'x'.repeat(48);
      await expectTokenError(
        await requestToken(app, { ...valid(), client_id: unknown }),
        'invalid_client',
        `invalid client_id ${unknown}`,
      );
    });

    it('wrong or missing secret', async () => {
      const description = 'client authentication (client secret) failed';
      await expectTokenError(
        await requestToken(app, { ...valid(), client_secret: 'y'.repeat(64) }),
        'invalid_client',
        description,
      );
      await expectTokenError(
        await requestToken(app, { ...valid(), client_secret: undefined }),
        'invalid_client',
        description,
      );
    });

    it('incorrect or missing scope', async () => {
      const other = await createTestTenant(app);
      await admin.addUser({ clientId: tenant.clientId, userId: 'gone' });
      await admin.setUserActive(tenant.clientId, 'gone', false);
      for (const scope of [
        undefined,
        tenant.clientId,
        `${tenant.clientId}/nobody`,
        `${tenant.clientId}/gone`,
        `${other.clientId}/${other.userId}`,
        `${tenant.clientId.toUpperCase()}/${tenant.userId}`,
      ]) {
        await expectTokenError(
          await requestToken(app, { ...valid(), scope }),
          'access_denied',
          'admin policy denied access',
        );
      }
    });

    it('uses the per-client token lifetime', async () => {
      const short = await createTestTenant(app);
      await admin.setClientSettings(short.clientId, { tokenLifetimeSeconds: 120 });
      const response = await requestToken(app, {
        grant_type: 'client_credentials',
        scope: `${short.clientId}/${short.userId}`,
        client_id: short.oauthClientId,
        client_secret: short.oauthClientSecret,
      });
      expect(response.status).toBe(200);
      expect(response.body.expires_in).toBe(120);
      const claims = jwt.decode(response.body.access_token) as jwt.JwtPayload;
      expect(claims.exp! - claims.iat!).toBe(120);
    });

    it('refuses the old secret after rotation', async () => {
      const rotated = await createTestTenant(app);
      const { oauthClientSecret } = await admin.rotateSecret(rotated.oauthClientId);
      const fields = {
        grant_type: 'client_credentials',
        scope: `${rotated.clientId}/${rotated.userId}`,
        client_id: rotated.oauthClientId,
      };
      expect(
        (await requestToken(app, { ...fields, client_secret: rotated.oauthClientSecret })).status,
      ).toBe(400);
      expect(
        (await requestToken(app, { ...fields, client_secret: oauthClientSecret })).status,
      ).toBe(200);
    });
  });

  describe('Bearer tokens', () => {
    const bearerChallenge = () => `Bearer realm="${realm}", error="invalid_token"`;

    it('a revoked token is refused at once (by token and by jti)', async () => {
      const byToken = await fetchBearer(app, tenant, tenant.userId);
      expect((await get(tenant.clientId, byToken)).status).toBe(200);
      await admin.revokeToken({ token: byToken.slice('Bearer '.length) });
      const refused = await get(tenant.clientId, byToken);
      expect(refused.status).toBe(401);
      expect(refused.body).toEqual({ Message: 'The access token has been revoked' });
      expect(refused.headers['www-authenticate']).toBe(bearerChallenge());

      const byJti = await fetchBearer(app, tenant, tenant.userId);
      expect((await get(tenant.clientId, byJti)).status).toBe(200);
      const { jti } = jwt.decode(byJti.slice('Bearer '.length)) as jwt.JwtPayload;
      await admin.revokeToken({ jti });
      expect((await get(tenant.clientId, byJti)).status).toBe(401);
    });

    it('an expired token is refused', async () => {
      const now = Math.floor(Date.now() / 1000);
      const expired = jwt.sign(
        {
          sub: tenant.userId,
          cid: tenant.clientId,
          jti: randomUUID(),
          scope: `${tenant.clientId}/${tenant.userId}`,
          iat: now - 7200,
          exp: now - 3600,
        },
        app.api.get(AuthSettings).jwtSecret,
        { algorithm: 'HS256' },
      );
      const response = await get(tenant.clientId, `Bearer ${expired}`);
      expect(response.status).toBe(401);
      expect(response.body.Message).toMatch(/expired/);
      expect(response.headers['www-authenticate']).toBe(bearerChallenge());
    });

    it('a token signed with another key, or no token, is refused', async () => {
      const forged = jwt.sign(
        { sub: tenant.userId, cid: tenant.clientId, jti: randomUUID(), scope: 'x' },
        'not-the-secret',
        { expiresIn: 600 },
      );
      for (const authorization of [`Bearer ${forged}`, 'Bearer', 'Bearer abc.def.ghi']) {
        const response = await get(tenant.clientId, authorization);
        expect(response.status).toBe(401);
        expect(response.headers['www-authenticate']).toBe(bearerChallenge());
      }
    });

    it('the token of a deactivated user is refused at once', async () => {
      const clientId = tenant.clientId;
      await admin.addUser({ clientId, userId: 'leaver' });
      const token = await fetchBearer(app, tenant, 'leaver');
      expect((await get(clientId, token)).status).toBe(200);
      await admin.setUserActive(clientId, 'leaver', false);
      const response = await get(clientId, token);
      expect(response.status).toBe(401);
      expect(response.headers['www-authenticate']).toBe(bearerChallenge());
    });

    it('a token of client A on client B answers 404 like an unknown client', async () => {
      const other = await createTestTenant(app);
      const response = await get(other.clientId, await tenant.bearer());
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ Message: `Client ${other.clientId} was not found` });

      const unknown = uniqueClientId('nobody');
      const missing = await get(unknown, await tenant.bearer());
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual({ Message: `Client ${unknown} was not found` });
    });
  });

  describe('CUSTOMAUTH3 signed header', () => {
    const customChallenge = (scheme: string) => `${scheme} realm="${realm}"`;

    it.each([
      'CUSTOMAUTH3-HMAC-SHA256',
      'CUSTOMAUTH3-HMAC-SHA384',
      'CUSTOMAUTH3-HMAC-SHA512',
      'CUSTOMAUTH3-SHA256',
      'CUSTOMAUTH3-SHA384',
      'CUSTOMAUTH3-SHA512',
      'customauth3-hmac-sha256',
      'CustomAuth3-Sha512',
    ])('accepts %s', async (scheme) => {
      const response = await get(tenant.clientId, tenant.signed({ scheme }));
      expect(response.status).toBe(200);
      expect(response.body.ConsentStatus).toEqual(expect.any(Array));
    });

    it('accepts US Eastern timestamps (-05:00 and -04:00)', async () => {
      const at = (offsetHours: number) =>
        nowTimestamp(-offsetHours * 3600_000).replace('Z', `-0${offsetHours}:00`);
      for (const timestamp of [
        at(5),
        at(4),
        nowTimestamp().replace('Z', '+00:00'),
        nowTimestamp().replace('Z', ''),
      ]) {
        const response = await get(tenant.clientId, tenant.signed({ timestamp }));
        expect({ timestamp, status: response.status }).toEqual({ timestamp, status: 200 });
      }
    });

    it('refuses other offsets, non-ISO and future timestamps', async () => {
      const plusOne = nowTimestamp(3600_000).replace('Z', '+01:00');
      for (const timestamp of [plusOne, 'yesterday', '1700000000', nowTimestamp(120_000)]) {
        const response = await get(tenant.clientId, tenant.signed({ timestamp }));
        expect(response.status).toBe(401);
        expect(response.body.Message).toMatch(/^Invalid issued timestamp/);
        expect(response.headers['www-authenticate']).toBe(
          customChallenge('CUSTOMAUTH3-HMAC-SHA256'),
        );
      }
    });

    it('refuses a timestamp older than the window', async () => {
      const response = await get(
        tenant.clientId,
        tenant.signed({ scheme: 'CUSTOMAUTH3-SHA512', timestamp: nowTimestamp(-901_000) }),
      );
      expect(response.status).toBe(401);
      expect(response.body.Message).toMatch(/exceeds the allowed window/);
      expect(response.headers['www-authenticate']).toBe(customChallenge('CUSTOMAUTH3-SHA512'));
      expect(
        (await get(tenant.clientId, tenant.signed({ timestamp: nowTimestamp(-600_000) }))).status,
      ).toBe(200);
    });

    it('uses the per-client window', async () => {
      const narrow = await createTestTenant(app);
      await admin.setClientSettings(narrow.clientId, { customAuthWindowSeconds: 60 });
      expect(
        (await get(narrow.clientId, narrow.signed({ timestamp: nowTimestamp(-30_000) }))).status,
      ).toBe(200);
      expect(
        (await get(narrow.clientId, narrow.signed({ timestamp: nowTimestamp(-120_000) }))).status,
      ).toBe(401);

      const wide = await createTestTenant(app);
      await admin.setClientSettings(wide.clientId, { customAuthWindowSeconds: 3600 });
      expect(
        (await get(wide.clientId, wide.signed({ timestamp: nowTimestamp(-1800_000) }))).status,
      ).toBe(200);
    });

    it('a missing Authorization header is 401 with a challenge', async () => {
      const response = await get(tenant.clientId);
      expect(response.status).toBe(401);
      expect(response.body).toEqual({ Message: 'Authorization header missing' });
      expect(response.headers['www-authenticate']).toContain(
        `CUSTOMAUTH3-HMAC-SHA256 realm="${realm}"`,
      );
    });

    it('an invalid scheme name is 401 naming the valid prefixes', async () => {
      const signed = tenant.signed();
      for (const authorization of [
        signed.replace('CUSTOMAUTH3-HMAC-SHA256', 'CUSTOMAUTH2-HMAC-SHA256'),
        signed.replace('CUSTOMAUTH3-HMAC-SHA256', 'CUSTOMAUTH3-HMAC-MD5'),
        `Basic ${Buffer.from('a:b').toString('base64')}`,
        'garbage',
      ]) {
        const response = await get(tenant.clientId, authorization);
        expect(response.status).toBe(401);
        expect(response.body.Message).toMatch(INVALID_SCHEME);
        expect(response.headers['www-authenticate']).toBe(
          customChallenge('CUSTOMAUTH3-HMAC-SHA256'),
        );
      }
    });

    it('generic failure: incomplete parameters, bad signature, unknown or inactive user', async () => {
      const timestamp = nowTimestamp();
      const scheme = 'customauth3-hmac-sha384';
      const signed = tenant.signed({ scheme, timestamp });
      await admin.addUser({ clientId: tenant.clientId, userId: 'dormant' });
      await admin.setUserActive(tenant.clientId, 'dormant', false);
      const cases = [
        `${scheme} Credential=${tenant.userId}/${timestamp}`,
        `${scheme} Signature=abc`,
        `${scheme} Credential=${tenant.userId}${timestamp} Signature=abc`,
        signed.replace(/Signature=.*$/, 'Signature=AAAA'),
        tenant.signed({ scheme, timestamp, clientId: tenant.clientId.toUpperCase() }),
        tenant.signed({ scheme, timestamp, userId: 'nobody' }),
        tenant.signed({ scheme, timestamp, userId: 'dormant' }),
      ];
      for (const authorization of cases) {
        const response = await get(tenant.clientId, authorization);
        expect({ authorization, status: response.status }).toEqual({ authorization, status: 401 });
        expect(response.body.Message).toMatch(/^Authorization failed/);
        expect(response.headers['www-authenticate']).toBe(customChallenge(scheme));
      }
    });

    it('an unknown client answers 404 with an empty body (client id is case-sensitive)', async () => {
      for (const clientId of [uniqueClientId('nobody'), tenant.clientId.toUpperCase()]) {
        const response = await get(clientId, tenant.signed({ clientId }));
        expect(response.status).toBe(404);
        expect(response.text).toBe('');
      }
    });

    it('signs a user id with a space URL-encoded, in Credential and in the message', async () => {
      await admin.addUser({ clientId: tenant.clientId, userId: 'jane doe+1' });
      const encoded = encodeURIComponent('jane doe+1');
      expect((await get(tenant.clientId, tenant.signed({ userId: encoded }))).status).toBe(200);

      // The message must use the user id as it appears in Credential, not the decoded one.
      const timestamp = nowTimestamp();
      const decodedSigned = signCustomAuth({
        scheme: 'CUSTOMAUTH3-HMAC-SHA256',
        clientId: tenant.clientId,
        userId: 'jane doe+1',
        timestamp,
        key: tenant.apiHashKey,
      });
      const signature = decodedSigned.slice(decodedSigned.indexOf('Signature='));
      const mixed = `CUSTOMAUTH3-HMAC-SHA256 Credential=${encoded}/${timestamp} ${signature}`;
      expect((await get(tenant.clientId, mixed)).status).toBe(401);
    });

    it('a rotated APIHashKey invalidates old signatures at once', async () => {
      const rotated = await createTestTenant(app);
      const { apiHashKey } = await admin.rotateApiHashKey(rotated.clientId);
      expect((await get(rotated.clientId, rotated.signed())).status).toBe(401);
      const fresh = signCustomAuth({
        scheme: 'CUSTOMAUTH3-HMAC-SHA256',
        clientId: rotated.clientId,
        userId: rotated.userId,
        timestamp: nowTimestamp(),
        key: apiHashKey,
      });
      expect((await get(rotated.clientId, fresh)).status).toBe(200);
    });
  });

  describe('permissions', () => {
    it('403 when the user group lacks the permission; write implies read', async () => {
      const clientId = tenant.clientId;
      await admin.defineUserGroup(clientId, 'Profile editors', [
        { area: 'profiles', access: 'write' },
      ]);
      await admin.defineUserGroup(clientId, 'Config writers', [
        { area: 'configuration', access: 'write' },
      ]);
      await admin.addUser({ clientId, userId: 'editor', group: 'Profile editors' });
      await admin.addUser({ clientId, userId: 'configurer', group: 'Config writers' });

      for (const authorization of [
        tenant.signed({ userId: 'editor' }),
        await fetchBearer(app, tenant, 'editor'),
      ]) {
        const response = await get(clientId, authorization);
        expect(response.status).toBe(403);
        expect(response.body).toEqual({
          Message: 'The user group "Profile editors" has no read permission on configuration',
        });
      }
      expect((await get(clientId, tenant.signed({ userId: 'configurer' }))).status).toBe(200);

      // A change of the group applies to the next request.
      await admin.setUserGroup(clientId, 'editor', 'Config writers');
      expect((await get(clientId, tenant.signed({ userId: 'editor' }))).status).toBe(200);
    });
  });

  describe('tenant administration', () => {
    it('refuses a second client with the same id', async () => {
      await expect(admin.createClient({ clientId: tenant.clientId, userId: 'x' })).rejects.toThrow(
        `Client ${tenant.clientId} already exists`,
      );
    });

    it('generates credentials of the documented lengths', () => {
      expect(tenant.oauthClientId).toMatch(/^[A-Za-z0-9]{48}$/);
      expect(tenant.oauthClientSecret).toMatch(/^[A-Za-z0-9]{64}$/);
      expect(tenant.apiHashKey).toMatch(/^[A-Za-z0-9]{64}$/);
    });
  });
});
