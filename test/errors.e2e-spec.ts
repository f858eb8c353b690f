import { Logger } from '@nestjs/common';
import { getConnectionToken } from '@nestjs/mongoose';
import type { Connection } from 'mongoose';
import request from 'supertest';
import { AuthSettings } from '@app/auth';
import { createTestTenant, requestToken, type TestTenant } from './harness/session';
import { startTestApp, type TestApp } from './harness/test-app';

describe('unexpected server conditions', () => {
  let app: TestApp;
  let tenant: TestTenant;
  let bearer: string;
  let connection: Connection;
  // The filter logs each unexpected error (the client never sees it): captured and asserted
  // here instead of printed.
  let loggedErrors: jest.SpyInstance;

  beforeAll(async () => {
    loggedErrors = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    app = await startTestApp({ workers: 0 });
    tenant = await createTestTenant(app);
    // Everything that needs the database is done before it goes away.
    bearer = await tenant.bearer();
    connection = app.api.get<Connection>(getConnectionToken());
    const before = await request(app.http)
      .get(`/Profiles/v4/${tenant.clientId}/ConsentStatus`)
      .set('Authorization', bearer);
    expect(before.status).toBe(200);
    // The database becomes unreachable: a real failure, nothing mocked.
    await connection.close();
  });

  afterAll(async () => {
    loggedErrors.mockRestore();
    // The api closes its (already closed) connection again on shutdown; that must not
    // keep the suite from finishing.
    try {
      await app?.close();
    } catch (error) {
      console.warn(`app.close() after closing the connection: ${String(error)}`);
    }
  });

  const expectUnexpectedCondition = (response: request.Response) => {
    expect(response.status).toBe(503);
    // The cause went to the log, with its stack and the request's id.
    expect(loggedErrors).toHaveBeenLastCalledWith(
      { reqId: expect.any(String) },
      expect.stringMatching(/MongoNotConnectedError/),
    );
    loggedErrors.mockClear();
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.body).toEqual({ Message: expect.any(String) });
    const message = response.body.Message as string;
    expect(message.length).toBeGreaterThan(0);
    // Nothing internal leaks: no stack frames, no driver or engine wording, no connection
    // string, no secret.
    expect(response.text).not.toMatch(/\bat \S+ \(|\.ts:\d+|node_modules|stack/i);
    expect(response.text).not.toMatch(/mongo|ferret|connection|topology|buffer/i);
    expect(response.text).not.toContain(app.settings.mongodbUri);
    expect(response.text).not.toContain(app.api.get(AuthSettings).jwtSecret);
  };

  it('answers a profile read with 503 {Message}, not 500', async () => {
    const response = await request(app.http)
      .get(`/Profiles/v4/${tenant.clientId}/Profile/1`)
      .set('Authorization', bearer);
    expectUnexpectedCondition(response);
  });

  it('answers the same under the custom scheme and for a write', async () => {
    const signed = await request(app.http)
      .get(`/Profiles/v4/${tenant.clientId}/Profile/1`)
      .set('Authorization', tenant.signed());
    expectUnexpectedCondition(signed);

    const write = await request(app.http)
      .post(`/Profiles/v4/${tenant.clientId}/Profile`)
      .set('Authorization', bearer)
      .send({ IsActive: true });
    expectUnexpectedCondition(write);
  });

  it('answers a token request with 503 {Message} as well', async () => {
    const response = await requestToken(app, {
      grant_type: 'client_credentials',
      scope: `${tenant.clientId}/${tenant.userId}`,
      client_id: tenant.oauthClientId,
      client_secret: tenant.oauthClientSecret,
    });
    expectUnexpectedCondition(response);
  });

  it('still answers what needs no database', async () => {
    // Errors decided before any lookup keep their own status.
    const missing = await request(app.http).get(`/Profiles/v4/${tenant.clientId}/Profile/1`);
    expect(missing.status).toBe(401);
    expect(missing.body).toEqual({ Message: 'Authorization header missing' });

    const docs = await request(app.http).get('/Profiles/v4/docs-json');
    expect(docs.status).toBe(200);
  });
});
