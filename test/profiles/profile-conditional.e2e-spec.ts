import request from 'supertest';
import { configureTestTenant } from '../harness/configuration';
import { createTestTenant, type TestTenant } from '../harness/session';
import { eventually, startTestApp, type TestApp } from '../harness/test-app';

describe('Conditional requests on a profile (ETag, If-None-Match, If-Match)', () => {
  let app: TestApp;
  let tenant: TestTenant;
  let auth: string;
  const base = () => `/Profiles/v4/${tenant.clientId}/Profile`;

  beforeAll(async () => {
    app = await startTestApp({ workers: 1 });
    tenant = await createTestTenant(app);
    await configureTestTenant(app, tenant);
    auth = await tenant.bearer();
  });
  afterAll(() => app?.close());

  /** A new profile, applied: its id and the ETag of its GET. */
  async function appliedProfile(): Promise<{ id: number; etag: string }> {
    const created = await request(app.http)
      .post(base())
      .set('Authorization', auth)
      .send({ CustomerType: 'Customer', CustomerName: { FirstName: 'Ann' } });
    expect(created.status).toBe(202);
    const id = created.body.ProfileId as number;
    const etag = await eventually(async () => {
      const response = await request(app.http).get(`${base()}/${id}`).set('Authorization', auth);
      return response.body.UpdateStatus === 'Complete'
        ? (response.headers.etag as string)
        : undefined;
    });
    return { id, etag };
  }

  const updates = async (id: number) =>
    (await request(app.http).get(`${base()}/${id}/Updates`).set('Authorization', auth)).body
      .Updates as unknown[];

  it('GET answers an ETag; If-None-Match with it gives 304 without a body', async () => {
    const { id, etag } = await appliedProfile();
    expect(etag).toMatch(/^"[\w-]{27}"$/);
    const again = await request(app.http)
      .get(`${base()}/${id}`)
      .set('Authorization', auth)
      .set('If-None-Match', etag);
    expect(again.status).toBe(304);
    expect(again.text ?? '').toBe('');
    expect(again.headers.etag).toBe(etag);
    const other = await request(app.http)
      .get(`${base()}/${id}`)
      .set('Authorization', auth)
      .set('If-None-Match', '"something-else"');
    expect(other.status).toBe(200);
  });

  it('a write changes the ETag (as soon as it is accepted: UpdateStatus is part of it)', async () => {
    const { id, etag } = await appliedProfile();
    await request(app.http)
      .post(`${base()}/${id}`)
      .set('Authorization', auth)
      .send({ CustomerName: { FirstName: 'Anna' } })
      .expect(202);
    const after = await request(app.http)
      .get(`${base()}/${id}`)
      .set('Authorization', auth)
      .set('If-None-Match', etag);
    expect(after.status).toBe(200);
    expect(after.headers.etag).not.toBe(etag);
  });

  it('a write with a current If-Match is accepted; one with a stale tag is 412 and queues nothing', async () => {
    const { id, etag } = await appliedProfile();
    const first = await request(app.http)
      .post(`${base()}/${id}`)
      .set('Authorization', auth)
      .set('If-Match', etag)
      .send({ CustomerName: { FirstName: 'First writer' } });
    expect(first.status).toBe(202);
    await eventually(async () => ((await updates(id)).length === 2 ? true : undefined));

    const second = await request(app.http)
      .put(`${base()}/${id}`)
      .set('Authorization', auth)
      .set('If-Match', etag)
      .send({ CustomerType: 'Customer', CustomerName: { FirstName: 'Second writer' } });
    expect(second.status).toBe(412);
    expect(second.body.Message).toMatch(new RegExp(`^Profile ${id} has changed: its ETag is "`));
    expect(second.headers.etag).not.toBe(etag);
    expect(await updates(id)).toHaveLength(2);
    // The first write is accepted; read the profile once it is applied.
    const stored = await eventually(async () => {
      const response = await request(app.http).get(`${base()}/${id}`).set('Authorization', auth);
      return response.body.UpdateStatus === 'Complete' ? response : undefined;
    });
    expect(stored.body.CustomerName.FirstName).toBe('First writer');
  });

  it('If-Match: a list holding the current tag matches, and so does *', async () => {
    const { id, etag } = await appliedProfile();
    const listed = await request(app.http)
      .post(`${base()}/${id}`)
      .set('Authorization', auth)
      .set('If-Match', `"old", ${etag}`)
      .send({ CustomerName: { FirstName: 'Listed' } });
    expect(listed.status).toBe(202);
    // The tag changed with that write; * matches whatever it is now.
    const any = await request(app.http)
      .post(`${base()}/${id}`)
      .set('Authorization', auth)
      .set('If-Match', '*')
      .send({ CustomerName: { FirstName: 'Any' } });
    expect(any.status).toBe(202);
  });
});
