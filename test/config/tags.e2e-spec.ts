import request from 'supertest';
import { configureTestTenant } from '../harness/configuration';
import { createTestTenant, useTenantApp } from '../harness/session';
import { eventually } from '../harness/test-app';

describe('Tags: GET /{clientId}/Tags and DELETE /{clientId}/Tags/{tagName}', () => {
  const suite = useTenantApp();
  const profiles = () => `/Profiles/v4/${suite.tenant.clientId}/Profile`;
  const tags = () => `/Profiles/v2/${suite.tenant.clientId}/Tags`;

  beforeAll(async () => {
    await configureTestTenant(suite.app, suite.tenant);
  });

  async function createApplied(body: object): Promise<number> {
    const res = await request(suite.app.http)
      .post(profiles())
      .set('Authorization', suite.auth)
      .send(body)
      .expect(202);
    const id = res.body.ProfileId as number;
    await complete(id);
    return id;
  }

  function complete(id: number): Promise<any> {
    return eventually(async () => {
      const res = await request(suite.app.http)
        .get(`${profiles()}/${id}`)
        .set('Authorization', suite.auth);
      return res.body.UpdateStatus === 'Complete' ? res.body : undefined;
    });
  }

  async function counts(): Promise<Record<string, number>> {
    const res = await request(suite.app.http)
      .get(tags())
      .set('Authorization', suite.auth)
      .expect(200);
    return Object.fromEntries(
      res.body.TagCounts.map((entry: any) => [entry.Tag.Name, entry.Count]),
    );
  }

  it('lists the account’s tags with the number of profiles carrying each', async () => {
    await createApplied({
      CustomerType: 'C',
      ProfileTags: [{ Name: 'vip' }, { Name: 'newsletter' }],
    });
    await createApplied({ CustomerType: 'C', ProfileTags: [{ Name: 'VIP' }] });
    await createApplied({ CustomerType: 'C' });
    expect(await counts()).toEqual({ vip: 2, newsletter: 1 });
    const res = await request(suite.app.http)
      .get(tags())
      .set('Authorization', suite.auth)
      .expect(200);
    for (const entry of res.body.TagCounts) {
      expect(entry.Tag).toEqual({
        Name: expect.any(String),
        IsActive: true,
        ProfileTagLink: expect.any(Number),
      });
    }
    const links = res.body.TagCounts.map((entry: any) => entry.Tag.ProfileTagLink);
    expect(new Set(links).size).toBe(links.length);
  });

  it('removes a tag from the account and from every profile, active or not, and nothing else', async () => {
    const active = await createApplied({
      CustomerType: 'C',
      CustomerName: { FirstName: 'Kept' },
      ProfileTags: [{ Name: 'Spring Sale' }, { Name: 'keep-me' }],
    });
    const inactive = await createApplied({
      CustomerType: 'C',
      IsActive: false,
      ProfileTags: [{ Name: 'spring sale' }],
    });
    expect((await counts())['Spring Sale']).toBe(2);

    await request(suite.app.http)
      .delete(`${tags()}/SPRING%20SALE`)
      .set('Authorization', suite.auth)
      .expect(204);

    const after = await eventually(async () => {
      const profile = await complete(active);
      return profile.ProfileTags.length === 1 ? profile : undefined;
    });
    expect(after.ProfileTags).toEqual([{ Name: 'keep-me' }]);
    expect(after.CustomerName.FirstName).toBe('Kept');
    const inactiveAfter = await complete(inactive);
    expect(inactiveAfter.ProfileTags).toEqual([]);
    expect(inactiveAfter.IsActive).toBe(false);
    const remaining = await counts();
    expect(remaining).not.toHaveProperty('Spring Sale');
    expect(remaining['keep-me']).toBe(1);
  });

  it('answers 404 for a tag the account does not have', async () => {
    const res = await request(suite.app.http)
      .delete(`${tags()}/no-such-tag`)
      .set('Authorization', suite.auth)
      .expect(404);
    expect(res.body.Message).toBe('Tag "no-such-tag" was not found');
  });

  it('keeps each account’s tags to itself', async () => {
    await createApplied({ CustomerType: 'C', ProfileTags: [{ Name: 'mine-only' }] });
    const other = await createTestTenant(suite.app);
    const otherAuth = await other.bearer();
    const res = await request(suite.app.http)
      .get(`/Profiles/v4/${other.clientId}/Tags`)
      .set('Authorization', otherAuth)
      .expect(200);
    expect(res.body).toEqual({ TagCounts: [] });
    await request(suite.app.http)
      .delete(`/Profiles/v4/${other.clientId}/Tags/mine-only`)
      .set('Authorization', otherAuth)
      .expect(404);
    expect((await counts())['mine-only']).toBe(1);
  });
});
