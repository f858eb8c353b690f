import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { createTestTenant, TOKEN_URL, type TestTenant } from './harness/session';
import { startTestApp, type TestApp } from './harness/test-app';

/** A protected route: area configuration, access read. */
const statusPath = (clientId: string) => `/Profiles/v4/${clientId}/ConsentStatus`;

const REFUSED = { Message: 'HTTPS is required' };

const tokenForm = (tenant: TestTenant) =>
  new URLSearchParams({
    grant_type: 'client_credentials',
    scope: `${tenant.clientId}/${tenant.userId}`,
    client_id: tenant.oauthClientId,
    client_secret: tenant.oauthClientSecret,
  }).toString();

describe('transport security', () => {
  describe('REQUIRE_HTTPS without TRUST_PROXY', () => {
    let app: TestApp;
    let tenant: TestTenant;

    beforeAll(async () => {
      app = await startTestApp({ workers: 0, env: { REQUIRE_HTTPS: 'true' } });
      tenant = await createTestTenant(app);
    });

    afterAll(async () => {
      await app?.close();
    });

    it('refuses a plain HTTP request with 403, even a correctly signed one', async () => {
      const response = await request(app.http)
        .get(statusPath(tenant.clientId))
        .set('Authorization', tenant.signed());
      expect(response.status).toBe(403);
      expect(response.body).toEqual(REFUSED);
    });

    it('does not trust X-Forwarded-Proto: https', async () => {
      const response = await request(app.http)
        .get(statusPath(tenant.clientId))
        .set('X-Forwarded-Proto', 'https')
        .set('Authorization', tenant.signed());
      expect(response.status).toBe(403);
      expect(response.body).toEqual(REFUSED);
    });

    it('refuses the token endpoint and the legacy prefix as well', async () => {
      const token = await request(app.http)
        .post(TOKEN_URL)
        .set('X-Forwarded-Proto', 'https')
        .type('form')
        .send(tokenForm(tenant));
      expect(token.status).toBe(403);
      expect(token.body).toEqual(REFUSED);

      const legacy = await request(app.http)
        .get(`/Profiles/v2/${tenant.clientId}/ConsentStatus`)
        .set('Authorization', tenant.signed());
      expect(legacy.status).toBe(403);
      expect(legacy.body).toEqual(REFUSED);
    });
  });

  describe('REQUIRE_HTTPS with TRUST_PROXY', () => {
    let app: TestApp;
    let tenant: TestTenant;
    let bearer: string;

    beforeAll(async () => {
      app = await startTestApp({
        workers: 0,
        env: { REQUIRE_HTTPS: 'true', TRUST_PROXY: 'true' },
      });
      tenant = await createTestTenant(app);
      // The token request itself must come through the (trusted) HTTPS proxy.
      const token = await request(app.http)
        .post(TOKEN_URL)
        .set('X-Forwarded-Proto', 'https')
        .type('form')
        .send(tokenForm(tenant));
      expect(token.status).toBe(200);
      bearer = `Bearer ${(token.body as { access_token: string }).access_token}`;
    });

    afterAll(async () => {
      await app?.close();
    });

    it('lets a request forwarded as https through', async () => {
      const response = await request(app.http)
        .get(statusPath(tenant.clientId))
        .set('X-Forwarded-Proto', 'https')
        .set('Authorization', bearer);
      expect(response.status).toBe(200);
      expect(response.body.ConsentStatus).toEqual(expect.any(Array));
    });

    it('refuses a request forwarded as http, or not forwarded at all', async () => {
      const forwardedHttp = await request(app.http)
        .get(statusPath(tenant.clientId))
        .set('X-Forwarded-Proto', 'http')
        .set('Authorization', bearer);
      expect(forwardedHttp.status).toBe(403);
      expect(forwardedHttp.body).toEqual(REFUSED);

      const direct = await request(app.http)
        .get(statusPath(tenant.clientId))
        .set('Authorization', bearer);
      expect(direct.status).toBe(403);
      expect(direct.body).toEqual(REFUSED);
    });

    it('refuses a forwarded token request over http', async () => {
      const token = await request(app.http)
        .post(TOKEN_URL)
        .set('X-Forwarded-Proto', 'http')
        .type('form')
        .send(tokenForm(tenant));
      expect(token.status).toBe(403);
      expect(token.body).toEqual(REFUSED);
    });
  });

  describe('HTTPS served by the api (TLS_CERT_FILE / TLS_KEY_FILE)', () => {
    let dir: string;
    let cert: Buffer;
    let app: TestApp;
    let tenant: TestTenant;
    let port: number;

    interface Answer {
      status: number;
      headers: http.IncomingHttpHeaders;
      body: string;
    }

    const send = (
      client: typeof http | typeof https,
      options: https.RequestOptions,
      body?: string,
    ): Promise<Answer> =>
      new Promise((resolve, reject) => {
        const req = client.request({ host: '127.0.0.1', port, agent: false, ...options }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              headers: res.headers,
              body: Buffer.concat(chunks).toString('utf8'),
            }),
          );
          res.on('error', reject);
        });
        req.on('error', reject);
        req.setTimeout(10000, () => req.destroy(new Error('request timed out')));
        req.end(body);
      });

    // The certificate is for CN=localhost; trust exactly it, and name it as the server.
    const secure = (options: https.RequestOptions, body?: string) =>
      send(https, { ca: cert, servername: 'localhost', ...options }, body);

    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'pcp-tls-'));
      execFileSync(
        'openssl',
        [
          'req',
          '-x509',
          '-newkey',
          'rsa:2048',
          '-nodes',
          '-subj',
          '/CN=localhost',
          '-days',
          '1',
          '-keyout',
          join(dir, 'key.pem'),
          '-out',
          join(dir, 'cert.pem'),
        ],
        { stdio: 'pipe' },
      );
      cert = readFileSync(join(dir, 'cert.pem'));
      app = await startTestApp({
        workers: 0,
        env: {
          TLS_CERT_FILE: join(dir, 'cert.pem'),
          TLS_KEY_FILE: join(dir, 'key.pem'),
          // Served over TLS, the socket itself is https: REQUIRE_HTTPS must let it through.
          REQUIRE_HTTPS: 'true',
        },
      });
      await app.api.listen(0, '127.0.0.1');
      port = (app.api.getHttpServer().address() as AddressInfo).port;
      tenant = await createTestTenant(app);
    });

    afterAll(async () => {
      await app?.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it('issues a token and answers a protected route over https', async () => {
      const form = tokenForm(tenant);
      const token = await secure(
        {
          method: 'POST',
          path: TOKEN_URL,
          headers: {
            'Content-Type': 'application/x-www-form-urlencoded',
            'Content-Length': Buffer.byteLength(form),
          },
        },
        form,
      );
      expect(token.status).toBe(200);
      const { access_token } = JSON.parse(token.body) as { access_token: string };

      const response = await secure({
        method: 'GET',
        path: statusPath(tenant.clientId),
        headers: { Authorization: `Bearer ${access_token}` },
      });
      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(JSON.parse(response.body)).toEqual({
        ConsentStatus: [
          { Name: 'Granted', Value: 1 },
          { Name: 'Denied', Value: 2 },
          { Name: 'Revoked', Value: 3 },
          { Name: 'NotSet', Value: 4 },
        ],
      });
    });

    it('presents the configured certificate', async () => {
      const peer = await new Promise<Buffer>((resolve, reject) => {
        const req = https.request(
          {
            host: '127.0.0.1',
            port,
            agent: false,
            path: '/Profiles/v4/docs-json',
            rejectUnauthorized: false,
          },
          (res) => {
            const raw = (res.socket as TLSSocket).getPeerCertificate().raw;
            res.resume();
            res.on('end', () => resolve(raw));
          },
        );
        req.on('error', reject);
        req.end();
      });
      const expected = Buffer.from(
        cert
          .toString('utf8')
          .replace(/-----(BEGIN|END) CERTIFICATE-----/g, '')
          .replace(/\s+/g, ''),
        'base64',
      );
      expect(peer.equals(expected)).toBe(true);
    });

    it('does not answer plain HTTP on the TLS port', async () => {
      const outcome = await send(http, {
        method: 'GET',
        path: statusPath(tenant.clientId),
        headers: { Authorization: tenant.signed() },
      }).then(
        (answer) => ({ status: answer.status }),
        (error: NodeJS.ErrnoException) => ({ error: error.code ?? error.message }),
      );
      if ('status' in outcome) {
        expect(outcome.status).toBeGreaterThanOrEqual(400);
      } else {
        expect(outcome.error).toEqual(expect.any(String));
      }
    });
  });
});
