import request from 'supertest';
import { JOBS_QUEUE } from '@app/shared';
import { startTestApp, type TestApp } from './harness/test-app';

const DASHBOARD = '/admin/queues';
const QUEUES_API = `${DASHBOARD}/api/queues`;
const basic = (password: string) =>
  `Basic ${Buffer.from(`operator:${password}`).toString('base64')}`;

/**
 * The queue dashboard (bull-board at /admin/queues, api only): its page, assets and JSON
 * API answer only the operator credential (OPERATOR_TOKEN, as Bearer or as Basic: the
 * browser's prompt), over the service's real queues in Redis.
 */
describe('the queue dashboard (/admin/queues) behind the operator credential', () => {
  let app: TestApp;
  let bearer: string;

  beforeAll(async () => {
    app = await startTestApp({ workers: 0 });
    bearer = `Bearer ${app.settings.operatorToken}`;
  });
  afterAll(() => app?.close());

  it('serves its page to the operator token, as Bearer or as Basic', async () => {
    for (const authorization of [bearer, basic(app.settings.operatorToken!)]) {
      for (const path of [DASHBOARD, `${DASHBOARD}/`]) {
        const response = await request(app.http).get(path).set('Authorization', authorization);
        expect([authorization.split(' ')[0], path, response.status]).toEqual([
          authorization.split(' ')[0],
          path,
          200,
        ]);
        expect(response.headers['content-type']).toMatch(/^text\/html/);
        expect(response.text).toContain(`<base href="${DASHBOARD}/" />`);
      }
    }
  });

  it("lists the service's queues by name in its JSON API", async () => {
    const response = await request(app.http).get(QUEUES_API).set('Authorization', bearer);
    expect(response.status).toBe(200);
    const names = (response.body.queues as { name: string }[]).map((queue) => queue.name);
    expect(names).toEqual([JOBS_QUEUE]);
    expect(names).toEqual(['jobs']);
  });

  it('serves its assets (the ones its page names) to the operator only', async () => {
    const page = await request(app.http).get(DASHBOARD).set('Authorization', bearer);
    const asset = /(?:href|src)="(static\/[^"]+\.(?:css|js))"/.exec(page.text)?.[1];
    expect(asset).toEqual(expect.stringMatching(/^static\//));
    const url = `${DASHBOARD}/${asset}`;
    const served = await request(app.http).get(url).set('Authorization', bearer);
    expect(served.status).toBe(200);
    expect(served.headers['content-type']).toMatch(/^(text\/css|application\/javascript)/);
    const refused = await request(app.http).get(url);
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual({ Message: 'The operator credential is missing or wrong' });
  });

  it('refuses no credential and a wrong one with 401 and a Basic challenge (a browser prompts)', async () => {
    for (const path of [DASHBOARD, QUEUES_API, `${DASHBOARD}/static/anything.js`]) {
      for (const authorization of [undefined, basic('wrong'), 'Bearer wrong']) {
        const test = request(app.http).get(path);
        const response = await (authorization ? test.set('Authorization', authorization) : test);
        expect([path, authorization, response.status]).toEqual([path, authorization, 401]);
        expect(response.body).toEqual({ Message: 'The operator credential is missing or wrong' });
        expect(response.headers['www-authenticate']).toBe('Basic realm="operator"');
      }
    }
  });

  it('acts on a queue for the operator, and refuses a change another site sends', async () => {
    const resume = `${QUEUES_API}/${JOBS_QUEUE}/resume`;
    const foreign = await request(app.http)
      .put(resume)
      .set('Authorization', bearer)
      .set('Sec-Fetch-Site', 'cross-site');
    expect(foreign.status).toBe(403);
    expect(foreign.body).toEqual({
      Message: 'The queue dashboard refuses a PUT sent by another site',
    });
    const own = await request(app.http)
      .put(resume)
      .set('Authorization', bearer)
      .set('Sec-Fetch-Site', 'same-origin');
    expect(own.status).toBe(200);
    const unauthenticated = await request(app.http).put(resume);
    expect(unauthenticated.status).toBe(401);
  });

  it('stays out of the API prefix and of the OpenAPI document', async () => {
    const prefixed = await request(app.http)
      .get(`/Profiles/v4${DASHBOARD}`)
      .set('Authorization', bearer);
    expect(prefixed.status).toBe(404);
    const document = await request(app.http).get('/Profiles/v4/docs-json');
    expect(document.status).toBe(200);
    const paths = Object.keys(document.body.paths as Record<string, unknown>);
    expect(paths.length).toBeGreaterThan(0);
    expect(paths.filter((path) => /admin|queues/i.test(path))).toEqual([]);
  });
});

describe('the queue dashboard without OPERATOR_TOKEN', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ workers: 0, env: { OPERATOR_TOKEN: '' } });
  });
  afterAll(() => app?.close());

  it('is closed: 403 saying how to open it, to any credential', async () => {
    for (const path of [DASHBOARD, QUEUES_API]) {
      for (const authorization of [undefined, 'Bearer anything', basic('anything')]) {
        const test = request(app.http).get(path);
        const response = await (authorization ? test.set('Authorization', authorization) : test);
        expect([path, authorization, response.status]).toEqual([path, authorization, 403]);
        expect(response.body).toEqual({
          Message: 'The operator routes are off: set OPERATOR_TOKEN',
        });
      }
    }
  });
});

describe('the queue dashboard turned off (QUEUE_DASHBOARD_ENABLED=false)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ workers: 0, env: { QUEUE_DASHBOARD_ENABLED: 'false' } });
  });
  afterAll(() => app?.close());

  it('is not served: 404, with the operator token too', async () => {
    for (const path of [DASHBOARD, QUEUES_API]) {
      const response = await request(app.http)
        .get(path)
        .set('Authorization', `Bearer ${app.settings.operatorToken}`);
      expect([path, response.status]).toEqual([path, 404]);
    }
  });
});
