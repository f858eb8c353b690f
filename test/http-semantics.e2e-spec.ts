import net from 'node:net';
import request from 'supertest';
import { configureTestTenant } from './harness/configuration';
import { createTestTenant, TOKEN_URL, type TestTenant } from './harness/session';
import { startTestApp, type TestApp } from './harness/test-app';

const ALLOWED_ORIGIN = 'https://app.example';

describe('HTTP semantics: 405, 415, Location, CORS', () => {
  let app: TestApp;
  let tenant: TestTenant;
  let auth: string;
  const base = () => `/Profiles/v4/${tenant.clientId}`;

  beforeAll(async () => {
    app = await startTestApp({
      workers: 0,
      env: { CORS_ORIGINS: `${ALLOWED_ORIGIN}, https://other.example` },
    });
    tenant = await createTestTenant(app);
    await configureTestTenant(app, tenant);
    auth = await tenant.bearer();
  });
  afterAll(() => app?.close());

  describe('a known path with a method it does not serve', () => {
    it('answers 405 with Allow listing the methods that path serves', async () => {
      const response = await request(app.http)
        .delete(`${base()}/ConsentStatus`)
        .set('Authorization', auth);
      expect(response.status).toBe(405);
      const allowed = String(response.headers.allow).split(', ');
      expect(allowed).toEqual(expect.arrayContaining(['GET', 'HEAD']));
      expect(allowed).not.toContain('DELETE');
      expect(response.body.Message).toMatch(/DELETE is not allowed on .*ConsentStatus/);
    });

    it('answers 405 on a path with parameters, and on the legacy prefix', async () => {
      const response = await request(app.http)
        .put(`/Profiles/v2/${tenant.clientId}/Profile/12/Updates`)
        .set('Authorization', auth);
      expect(response.status).toBe(405);
      expect(String(response.headers.allow).split(', ')).toContain('GET');
    });

    it('answers 405 on a literal path its method serves only through a parameter', async () => {
      // PATCH .../Programs/:programId exists; .../Programs/IncludeAll is GET's own route.
      const response = await request(app.http)
        .patch(`${base()}/Programs/IncludeAll`)
        .set('Authorization', auth)
        .send({});
      expect(response.status).toBe(405);
      expect(String(response.headers.allow).split(', ')).toEqual(['GET', 'HEAD']);
      expect(response.body).toEqual({
        Message: expect.stringMatching(
          /PATCH is not allowed on .*\/Programs\/IncludeAll; allowed: GET, HEAD/,
        ),
      });
    });

    it('answers 405 for PUT and DELETE on a literal profile search path', async () => {
      // PUT and DELETE .../Profile/:profileId exist; .../Profile/Email is a GET search.
      for (const method of ['put', 'delete'] as const) {
        const response = await request(app.http)
          [method](`${base()}/Profile/Email`)
          .set('Authorization', auth);
        expect({ method, status: response.status, allow: response.headers.allow }).toEqual({
          method,
          status: 405,
          allow: 'GET, HEAD',
        });
      }
    });

    it("lists only the literal route's methods for a method no route serves", async () => {
      // PUT, PATCH, DELETE .../Profile/:profileId do not serve .../Profile/Email (OPTIONS
      // goes to CORS here, so another method no route serves: SEARCH).
      const response = await request(app.http)
        .search(`${base()}/Profile/Email`)
        .set('Authorization', auth);
      expect(response.status).toBe(405);
      expect(response.headers.allow).toBe('GET, HEAD');
    });

    it('still serves the parametric route for any other value of the parameter', async () => {
      const response = await request(app.http)
        .patch(`${base()}/Programs/NoSuchProgram`)
        .set('Authorization', auth)
        .send({});
      expect(response.status).not.toBe(405);
      expect(response.headers.allow).toBeUndefined();
      const legacy = await request(app.http)
        .put(`/Profiles/v2/${tenant.clientId}/Profile/Email`)
        .set('Authorization', auth);
      expect(legacy.status).toBe(405);
    });

    it('still answers 404 for a path nothing serves', async () => {
      const response = await request(app.http)
        .get(`${base()}/NoSuchThing`)
        .set('Authorization', auth);
      expect(response.status).toBe(404);
      expect(response.headers.allow).toBeUndefined();
      expect(response.body).toEqual({ Message: expect.any(String) });
    });

    it('answers 404, not 405, for a method the path serves asked with a trailing slash', async () => {
      const response = await request(app.http)
        .get(`${base()}/ConsentStatus/`)
        .set('Authorization', auth);
      expect(response.status).toBe(404);
      expect(response.headers.allow).toBeUndefined();
      // Another method on the same spelling is still a wrong method.
      const wrong = await request(app.http)
        .delete(`${base()}/ConsentStatus/`)
        .set('Authorization', auth);
      expect(wrong.status).toBe(405);
      expect(String(wrong.headers.allow).split(', ')).toContain('GET');
    });
  });

  describe('a request body that is not JSON', () => {
    const post = () => request(app.http).post(`${base()}/Profile`).set('Authorization', auth);

    it('refuses text/plain with 415 naming the type', async () => {
      const response = await post()
        .set('Content-Type', 'text/plain')
        .send('{"CustomerType":"Customer"}');
      expect(response.status).toBe(415);
      expect(response.body).toEqual({
        Message: 'Content-Type text/plain is not supported here: send application/json',
      });
    });

    it('refuses a form body on a JSON route with 415 (it was accepted before)', async () => {
      const response = await post().type('form').send('CustomerType=Customer');
      expect(response.status).toBe(415);
      expect(response.body.Message).toMatch(/application\/x-www-form-urlencoded/);
    });

    it('refuses a body without Content-Type with a clean 415 message', async () => {
      const response = await request(app.http)
        .post(`${base()}/Profile`)
        .set('Authorization', auth)
        .set('Content-Length', '2')
        .unset('Content-Type')
        .send(Buffer.from('{}'));
      expect(response.status).toBe(415);
      expect(response.body).toEqual({
        Message: 'A request body needs a Content-Type header: send application/json',
      });
    });

    it('accepts the JSON media types the spec names', async () => {
      for (const type of ['application/json', 'text/json', 'application/vnd.acme+json']) {
        const response = await post()
          .set('Content-Type', type)
          .send(JSON.stringify({ CustomerType: 'Customer' }));
        expect([type, response.status]).toEqual([type, 202]);
      }
    });

    it('keeps the token endpoint on forms', async () => {
      const response = await request(app.http)
        .post(TOKEN_URL)
        .type('form')
        .send({
          grant_type: 'client_credentials',
          scope: `${tenant.clientId}/${tenant.userId}`,
          client_id: tenant.oauthClientId,
          client_secret: tenant.oauthClientSecret,
        });
      expect(response.status).toBe(200);
      expect(response.body.access_token).toEqual(expect.any(String));
    });
  });

  describe('Location of what a write created or accepted', () => {
    it('a queued profile write: Location of the profile, Link to its write records', async () => {
      const response = await request(app.http)
        .post(`${base()}/Profile`)
        .set('Authorization', auth)
        .send({ CustomerType: 'Customer' });
      expect(response.status).toBe(202);
      const id = response.body.ProfileId as number;
      expect(response.headers.location).toBe(`${base()}/Profile/${id}`);
      expect(response.headers.link).toBe(`<${base()}/Profile/${id}/Updates>; rel="monitor"`);
    });

    it('keeps the prefix the client used (the legacy v2)', async () => {
      const response = await request(app.http)
        .post(`/Profiles/v2/${tenant.clientId}/Profile`)
        .set('Authorization', auth)
        .send({ CustomerType: 'Customer' });
      expect(response.status).toBe(202);
      expect(response.headers.location).toBe(
        `/Profiles/v2/${tenant.clientId}/Profile/${response.body.ProfileId}`,
      );
    });

    it('a configuration create: Location of the collection the new entries are listed in', async () => {
      const response = await request(app.http)
        .post(`${base()}/EmailTypes`)
        .set('Authorization', auth)
        .send({
          EmailTypes: [
            { TypeName: 'Work-location', LocalizedFields: [{ Locale: 'en-us', Name: 'Work' }] },
          ],
        });
      expect({ status: response.status, body: response.body }).toEqual({
        status: 201,
        body: expect.anything(),
      });
      expect(response.headers.location).toBe(`${base()}/EmailTypes`);
    });

    it('a do-not-contact list: Location of its entries', async () => {
      const response = await request(app.http)
        .post(`${base()}/DoNotContactLists`)
        .set('Authorization', auth)
        .send({ Name: 'Bounced', ListType: 'Email' });
      expect(response.status).toBe(201);
      expect(response.headers.location).toBe(
        `${base()}/DoNotContactLists/${response.body.ListId}/Entries`,
      );
    });
  });

  describe('what is refused before any route runs, in the error shape', () => {
    /** Sends raw bytes to a listening api; the whole answer. */
    async function raw(text: string): Promise<string> {
      if (!app.http.listening) await app.api.listen(0, '127.0.0.1');
      const { port } = app.http.address() as net.AddressInfo;
      return new Promise((resolve, reject) => {
        let answer = '';
        const socket = net.connect(port, '127.0.0.1', () => socket.write(text));
        socket.on('data', (chunk) => (answer += chunk.toString()));
        socket.on('close', () => resolve(answer));
        socket.on('error', reject);
      });
    }
    const bodyOf = (answer: string) => JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));

    it('a path that is not valid URL encoding: 400', async () => {
      const answer = await raw(
        `GET /Profiles/v4/%E0%A4%A/ConsentStatus HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
      );
      expect(answer).toMatch(/^HTTP\/1\.1 400 /);
      expect(bodyOf(answer)).toEqual({
        Message: 'The path is not valid URL encoding (value "/Profiles/v4/%E0%A4%A/ConsentStatus")',
      });
    });

    it('headers too large: 431', async () => {
      const answer = await raw(
        `GET /Profiles/v4/x/ConsentStatus HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20000)}\r\n\r\n`,
      );
      expect(answer).toMatch(/^HTTP\/1\.1 431 /);
      expect(bodyOf(answer)).toEqual({ Message: 'The request headers are too large' });
    });

    const postJson = (text: string) =>
      request(app.http)
        .post(`${base()}/Profile`)
        .set('Authorization', auth)
        .set('Content-Type', 'application/json')
        .send(text);

    it('a body holding a __proto__ key: 400 saying so (it is valid JSON)', async () => {
      const response = await postJson('{"CustomerType": "Customer", "__proto__": {"x": 1}}');
      expect(response.status).toBe(400);
      expect(response.body).toEqual({
        Message: 'The body holds a "__proto__" key, which is refused; remove it',
      });
    });

    it('a body that is not JSON, or empty: 400 saying so', async () => {
      const broken = await postJson('{"CustomerType": ');
      expect(broken.status).toBe(400);
      expect(broken.body.Message).toMatch(/^The body is not valid JSON: /);
      const empty = await postJson(' ');
      expect(empty.status).toBe(400);
      expect(empty.body).toEqual({ Message: 'The request body is empty: send a JSON value' });
    });

    it('an oversize body of any JSON type: 413 in the error shape', async () => {
      const big = JSON.stringify({ CustomerType: 'x'.repeat(2_000_000) });
      for (const type of ['application/json', 'text/json']) {
        const response = await request(app.http)
          .post(`${base()}/Profile`)
          .set('Authorization', auth)
          .set('Content-Type', type)
          .send(big);
        expect([type, response.status, response.body]).toEqual([
          type,
          413,
          { Message: expect.any(String) },
        ]);
      }
    });
  });

  describe('a missing request body', () => {
    it('is refused with 400 where a DTO validates the body (it had created a profile)', async () => {
      const response = await request(app.http)
        .post(`${base()}/Profile/AlternateId`)
        .query({ alternateIdType: 'CRM', alternateId: 'NO-BODY-1' })
        .set('Authorization', auth);
      expect(response.status).toBe(400);
      expect(response.body).toEqual({
        Message: 'Invalid body (value missing): a JSON object is required',
      });
      const asNull = await request(app.http)
        .post(`${base()}/Profile/AlternateId`)
        .query({ alternateIdType: 'CRM', alternateId: 'NO-BODY-1' })
        .set('Authorization', auth)
        .set('Content-Type', 'application/json')
        .send('null');
      expect(asNull.status).toBe(400);
      expect(asNull.body).toEqual({
        Message: 'Invalid body (value null): a JSON object is required',
      });
    });
  });

  describe('CORS', () => {
    it('answers a preflight from an allowed origin', async () => {
      const response = await request(app.http)
        .options(`${base()}/Profile`)
        .set('Origin', ALLOWED_ORIGIN)
        .set('Access-Control-Request-Method', 'POST')
        .set('Access-Control-Request-Headers', 'authorization, content-type');
      expect(response.status).toBe(204);
      expect(response.headers['access-control-allow-origin']).toBe(ALLOWED_ORIGIN);
      expect(String(response.headers['access-control-allow-methods'])).toMatch(/POST/);
    });

    it('lists the exposed headers on an answer to an allowed origin', async () => {
      const response = await request(app.http)
        .get(`${base()}/ConsentStatus`)
        .set('Origin', ALLOWED_ORIGIN)
        .set('Authorization', auth);
      expect(response.status).toBe(200);
      expect(response.headers['access-control-allow-origin']).toBe(ALLOWED_ORIGIN);
      expect(String(response.headers['access-control-expose-headers']).split(/,\s*/)).toEqual(
        expect.arrayContaining(['Location', 'Link', 'Retry-After']),
      );
    });

    it('gives another origin no CORS headers', async () => {
      const response = await request(app.http)
        .options(`${base()}/Profile`)
        .set('Origin', 'https://evil.example')
        .set('Access-Control-Request-Method', 'POST');
      expect(response.headers['access-control-allow-origin']).toBeUndefined();
    });
  });
});
