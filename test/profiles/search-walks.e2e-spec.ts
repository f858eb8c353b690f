import request from 'supertest';
import { configureTestTenant } from '../harness/configuration';
import { createTestTenant, TestTenant } from '../harness/session';
import { eventually, startTestApp, TestApp } from '../harness/test-app';

/**
 * A user's search reads at most SEARCH_CANDIDATE_LIMIT candidates from the key index (more
 * is a 403); the walks the service makes itself over the same index (tag deletion, group
 * rename) must reach every holder however many there are. The limit is set to 2 here, so
 * 4 holders stand for "more than 5,000".
 */
describe('Search candidate limit: capped searches, uncapped walks', () => {
  let app: TestApp;
  let tenant: TestTenant;
  let auth: string;
  const base = () => `/Profiles/v4/${tenant.clientId}`;
  const tag = `walk${Date.now().toString(36)}`;
  let ids: number[] = [];

  async function applied(profileId: number): Promise<any> {
    return eventually(async () => {
      const res = await request(app.http)
        .get(`${base()}/Profile/${profileId}`)
        .set('Authorization', auth);
      return res.status === 200 && res.body.UpdateStatus === 'Complete' ? res.body : undefined;
    });
  }

  beforeAll(async () => {
    app = await startTestApp({ env: { SEARCH_CANDIDATE_LIMIT: '2' } });
    tenant = await createTestTenant(app);
    await configureTestTenant(app, tenant);
    auth = await tenant.bearer();
    for (let i = 0; i < 4; i++) {
      const res = await request(app.http)
        .post(`${base()}/Profile`)
        .set('Authorization', auth)
        .send({
          CustomerType: 'Customer',
          ProfileTags: [{ Name: tag }],
          Groups: [{ GroupType: 'Household', GroupName: 'Crowd' }],
        })
        .expect(202);
      ids.push(res.body.ProfileId as number);
    }
    for (const id of ids) await applied(id);
    ids = ids.sort((a, b) => a - b);
  });
  afterAll(() => app.close());

  it('answers 403 to a search with more candidates than the limit', async () => {
    const res = await request(app.http)
      .get(`${base()}/Profile/Tags?tags[0]=${tag}`)
      .set('Authorization', auth)
      .expect(403);
    expect(res.body.Message).toMatch(/more than 2 candidate profiles/);
  });

  it('renames the group on every holder', async () => {
    const res = await request(app.http)
      .post(`${base()}/Groups/Household/Rename`)
      .set('Authorization', auth)
      .send({ OldGroupName: 'Crowd', NewGroupName: 'Throng' })
      .expect(200);
    expect(res.body.ProfilesQueued).toBe(4);
    for (const id of ids) {
      const profile = await eventually(async () => {
        const body = await applied(id);
        return body.Groups?.[0]?.GroupName === 'Throng' ? body : undefined;
      });
      expect(profile.Groups).toHaveLength(1);
    }
  });

  it('deletes a tag from every holder', async () => {
    await request(app.http).delete(`${base()}/Tags/${tag}`).set('Authorization', auth).expect(204);
    for (const id of ids) {
      const profile = await eventually(async () => {
        const body = await applied(id);
        return (body.ProfileTags ?? []).length === 0 ? body : undefined;
      });
      expect(profile.ProfileTags ?? []).toEqual([]);
    }
  });
});
