import request from 'supertest';
import { configureTestTenant } from '../harness/configuration';
import { createTestTenant, TestTenant } from '../harness/session';
import { eventually, startTestApp, TestApp } from '../harness/test-app';

/**
 * `{"a":{"a":..."x"}}` (objects) or `[[..."x"]]` (arrays), `levels` deep, as JSON text
 * (JSON.stringify itself overflows the stack on such a value).
 */
function nested(levels: number, kind: 'object' | 'array' = 'object'): string {
  return kind === 'object'
    ? `${'{"a":'.repeat(levels)}"x"${'}'.repeat(levels)}`
    : `${'['.repeat(levels)}"x"${']'.repeat(levels)}`;
}

/**
 * Bad input never reaches the unexpected-error path: nesting depth, array lengths and
 * string lengths are bounded before any work, with a 400 that names the bound, and
 * nothing is stored. The list bounds of a profile also hold for what a write would make
 * of it when applied.
 */
describe('Input bounds', () => {
  let app: TestApp;
  let tenant: TestTenant;
  let auth: string;
  let profileId: number;
  const base = () => `/Profiles/v4/${tenant.clientId}`;

  const updates = async (id: number) =>
    (
      await request(app.http)
        .get(`${base()}/Profile/${id}/Updates`)
        .set('Authorization', auth)
        .expect(200)
    ).body.Updates as { Sequence: number; Status: string; FailureReason?: string }[];

  const complete = (id: number) =>
    eventually(async () => {
      const res = await request(app.http).get(`${base()}/Profile/${id}`).set('Authorization', auth);
      return res.status === 200 && res.body.UpdateStatus === 'Complete' ? res.body : undefined;
    });

  const emails = (count: number, from = 0) =>
    Array.from({ length: count }, (_, i) => ({
      EmailAddress: `bound${from + i}@example.com`,
      EmailAddressType: 'Personal',
    }));

  beforeAll(async () => {
    app = await startTestApp();
    tenant = await createTestTenant(app);
    await configureTestTenant(app, tenant);
    auth = await tenant.bearer();
    const res = await request(app.http)
      .post(`${base()}/Profile`)
      .set('Authorization', auth)
      .send({ CustomerType: 'Customer', CustomerName: { FirstName: 'Ann' } })
      .expect(202);
    profileId = res.body.ProfileId;
    await complete(profileId);
  });
  afterAll(() => app.close());

  describe('a body nested 10,000 levels deep is a 400 naming the bound', () => {
    const deep = /nested deeper than 32 levels/;

    it('as the whole body', async () => {
      for (const kind of ['object', 'array'] as const) {
        const res = await request(app.http)
          .post(`${base()}/Profile`)
          .set('Authorization', auth)
          .set('Content-Type', 'application/json')
          .send(nested(10000, kind))
          .expect(400);
        expect(res.body.Message).toMatch(deep);
      }
    });

    it('inside CustomerName of a create, and in a merge: nothing is queued', async () => {
      const before = await updates(profileId);
      const create = await request(app.http)
        .post(`${base()}/Profile`)
        .set('Authorization', auth)
        .set('Content-Type', 'application/json')
        .send(`{"CustomerType":"Customer","CustomerName":${nested(10000)}}`)
        .expect(400);
      expect(create.body.Message).toMatch(deep);
      expect(create.body.Message).toMatch(/\$\.CustomerName/);
      const merge = await request(app.http)
        .post(`${base()}/Profile/${profileId}`)
        .set('Authorization', auth)
        .set('Content-Type', 'application/json')
        .send(`{"CustomFields":[{"Name":"Tier","Value":${nested(10000)}}]}`)
        .expect(400);
      expect(merge.body.Message).toMatch(deep);
      expect(await updates(profileId)).toEqual(before);
    });

    it('in a PATCH value', async () => {
      const before = await updates(profileId);
      const res = await request(app.http)
        .patch(`${base()}/Profile/${profileId}`)
        .set('Authorization', auth)
        .set('Content-Type', 'application/json-patch+json')
        .send(`[{"op":"add","path":"/CustomerName","value":${nested(10000)}}]`)
        .expect(400);
      expect(res.body.Message).toMatch(deep);
      expect(await updates(profileId)).toEqual(before);
    });

    it('in a configuration POST', async () => {
      const res = await request(app.http)
        .post(`${base()}/CustomFields/Text`)
        .set('Authorization', auth)
        .set('Content-Type', 'application/json')
        .send(`{"TextFields":[{"Name":"Deep","LocalizedDisplayNames":${nested(10000, 'array')}}]}`)
        .expect(400);
      expect(res.body.Message).toMatch(deep);
    });
  });

  it('any array over 1,000 elements, and any string over 10,000 characters, is a 400', async () => {
    const huge = await request(app.http)
      .post(`${base()}/Profile`)
      .set('Authorization', auth)
      .send({ CustomerType: 'Customer', Emails: emails(10000) })
      .expect(400);
    expect(huge.body.Message).toBe('$.Emails has 10000 elements; at most 1000 are accepted');
    const long = await request(app.http)
      .post(`${base()}/Profile/${profileId}`)
      .set('Authorization', auth)
      .send({ CustomerName: { FirstName: 'x'.repeat(10001) } })
      .expect(400);
    expect(long.body.Message).toBe(
      '$.CustomerName.FirstName is 10001 characters long; at most 10000 are accepted',
    );
  });

  it('a write body over a profile list bound is a 400 naming the list and the bound', async () => {
    const before = await updates(profileId);
    const res = await request(app.http)
      .post(`${base()}/Profile/${profileId}`)
      .set('Authorization', auth)
      .send({
        Emails: emails(101),
        ProfileTags: Array.from({ length: 501 }, (_, i) => ({ Name: `tag${i}` })),
      })
      .expect(400);
    expect(res.body.Message).toContain('Emails holds 101 elements; a profile may hold at most 100');
    expect(res.body.Message).toContain(
      'ProfileTags holds 501 elements; a profile may hold at most 500',
    );
    expect(await updates(profileId)).toEqual(before);
  });

  it('a merge that would take a stored list over its bound fails when applied, and changes nothing', async () => {
    await request(app.http)
      .post(`${base()}/Profile/${profileId}`)
      .set('Authorization', auth)
      .send({ Emails: emails(60) })
      .expect(202);
    await request(app.http)
      .post(`${base()}/Profile/${profileId}`)
      .set('Authorization', auth)
      .send({ Emails: emails(60, 60) })
      .expect(202);
    const profile = await complete(profileId);
    expect(profile.Emails).toHaveLength(60);
    const [last] = await updates(profileId);
    expect(last.Status).toBe('Failed');
    expect(last.FailureReason).toBe('Emails holds 120 elements; a profile may hold at most 100');
  });
});
