import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { mentionProblem, routeMentions, type RouteMention, servedRoutes } from './doc-routes';

const ROOT = join(__dirname, '..', '..');

/**
 * Every route README.md and docs/*.md name is in the OpenAPI document (how a route is
 * recognised and normalised: test/docs/doc-routes.ts). The document read is the committed
 * openapi.json, which test/openapi-document.e2e-spec.ts keeps equal to the one the api serves
 * at /Profiles/v4/docs-json.
 */
describe('routes named in the documents', () => {
  const openapi = JSON.parse(readFileSync(join(ROOT, 'openapi.json'), 'utf8')) as {
    paths: Record<string, object>;
  };
  const served = servedRoutes(openapi.paths);
  const files = [
    'README.md',
    ...readdirSync(join(ROOT, 'docs'))
      .filter((name) => name.endsWith('.md'))
      .sort()
      .map((name) => `docs/${name}`),
  ];

  /** Mentions that name no route of the service on purpose, by file and text, with why. */
  const NOT_ROUTES: { file: string; text: string; why: string }[] = [
    {
      file: 'docs/benchmarks.md',
      text: 'POST /accept-durable',
      why: "the benchmark's baseline server (scripts/bench/baseline-server.js), not the service",
    },
    {
      file: 'docs/operations.md',
      text: 'PATCH .../Programs/IncludeAll',
      why: 'the example of a method a literal route does not serve (answered 405 with its Allow)',
    },
  ];

  /**
   * Paths the service serves that the OpenAPI document leaves out, and why. Everything else
   * it serves outside the API (health, metrics, the preference centre's pages and
   * /.well-known/gpc.json) is in the document.
   */
  const OUTSIDE_OPENAPI: { path: string; why: string }[] = [
    { path: '/Profiles/v4/docs', why: 'the Swagger UI page of the document itself' },
    { path: '/Profiles/v4/docs-json', why: 'the OpenAPI document itself' },
    {
      path: '/admin/queues',
      why: 'the Bull queue dashboard (bull-board), a Fastify plugin of its own, for operators',
    },
  ];

  const mentions: RouteMention[] = files.flatMap((file) =>
    routeMentions(file, readFileSync(join(ROOT, file), 'utf8')),
  );
  const isNotARoute = (mention: RouteMention) =>
    NOT_ROUTES.some((entry) => entry.file === mention.file && mention.text.startsWith(entry.text));

  it('finds the routes of every document that names some', () => {
    const named = new Set(mentions.map((mention) => mention.file));
    for (const file of [
      'README.md',
      'docs/api.md',
      'docs/profile-merge.md',
      'docs/reports.md',
      'docs/events.md',
      'docs/bulk.md',
    ]) {
      expect([file, named.has(file)]).toEqual([file, true]);
    }
    expect(mentions.length).toBeGreaterThan(200);
  });

  it('each is in the OpenAPI document, with its method', () => {
    const problems = mentions
      .filter((mention) => !isNotARoute(mention))
      .map((mention) => [mention, mentionProblem(mention, served)] as const)
      .filter(([, problem]) => problem !== '')
      .map(([mention, problem]) => `${mention.file}:${mention.line} ${mention.text}: ${problem}`);
    expect(problems).toEqual([]);
  });

  it('the exceptions are still named where listed', () => {
    for (const entry of NOT_ROUTES) {
      expect([entry, mentions.some((m) => m.file === entry.file && isNotARoute(m))]).toEqual([
        entry,
        true,
      ]);
    }
  });

  it('lists what the service serves outside the OpenAPI document, and only that', () => {
    const documented = Object.keys(openapi.paths);
    for (const { path } of OUTSIDE_OPENAPI) expect(documented).not.toContain(path);
    for (const path of ['/health/live', '/health/ready', '/metrics', '/.well-known/gpc.json']) {
      expect(documented).toContain(path);
    }
    expect(documented).toEqual(
      expect.arrayContaining([
        '/Profiles/v4/{clientId}/PreferenceCentre',
        '/Profiles/v4/{clientId}/PreferenceCentre/Unsubscribe',
        '/Profiles/v4/{clientId}/Reports/Page',
      ]),
    );
  });

  describe('the recognition itself', () => {
    const problemsOf = (text: string) =>
      routeMentions('doc.md', text)
        .map((mention) => mentionProblem(mention, served))
        .filter((problem) => problem !== '');

    it('reports a route the document has not (the former profile-merge.md history route)', () => {
      expect(problemsOf('`GET Profile/{S}/History` lists them')).toEqual([
        'no route is /Profiles/v4/{}/Profile/{}/History',
      ]);
      expect(problemsOf('`GET Profile/{S}/History/StandardFields` lists them')).toEqual([]);
    });

    it('reports a method the route does not serve', () => {
      expect(problemsOf('then `DELETE /{clientId}/ConsentStatus`')).toEqual([
        'DELETE is not served at /Profiles/v4/{}/ConsentStatus (/Profiles/v4/{clientId}/ConsentStatus: GET)',
      ]);
    });

    it('reads prefixes, alternatives, tails, sub-resources and the legacy prefix', () => {
      const paths = (text: string) => routeMentions('doc.md', text).map((m) => m.paths);
      expect(paths('POST /Profiles/v2/{clientId}/Profile?x=1.')).toEqual([
        ['/Profiles/v4/{}/Profile'],
      ]);
      expect(paths('GET `Profile/{id}/History/{Consents|Preferences}`')).toEqual([
        [
          '/Profiles/v4/{}/Profile/{}/History/Consents',
          '/Profiles/v4/{}/Profile/{}/History/Preferences',
        ],
      ]);
      expect(paths('POST /Profiles/v4/:clientId/Profile')).toEqual([['/Profiles/v4/{}/Profile']]);
      expect(
        problemsOf('GET .../Bulk/Import/{accessToken}/Exceptions and GET Profile/AlternateId/...'),
      ).toEqual([]);
      expect(problemsOf('prose: GET requests, a GET profile, POST / PUT')).toEqual([]);
    });

    it('reads a routes table: methods in the first cell, paths in the second', () => {
      const row =
        '| GET | `/{clientId}/Profile/Phone?phoneNumber=`, `Email?emailAddress=`, `Nowhere` (`groupType` required) |';
      expect(routeMentions('doc.md', row).map((m) => m.text)).toEqual([
        '/{clientId}/Profile/Phone?phoneNumber=',
        'Email?emailAddress=',
        'Nowhere',
      ]);
      expect(problemsOf(row)).toEqual(['no route ends with /Nowhere']);
    });
  });
});
