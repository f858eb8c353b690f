import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { startTestApp, type TestApp } from './harness/test-app';

/*
 * The OpenAPI document the api serves (/Profiles/v4/docs-json) is committed as openapi.json,
 * which `npm run openapi:lint` lints: the committed file must be the served document
 * (`npm run openapi:write` rewrites it: this file with OPENAPI_WRITE=1). The other tests
 * hold the properties generators and fuzzers rely on.
 */

const COMMITTED = join(__dirname, '..', 'openapi.json');
const ERROR_REF = '#/components/schemas/ErrorDto';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
interface Parameter {
  $ref?: string;
  name: string;
  in: string;
  required?: boolean;
  schema?: Record<string, unknown>;
}
interface Response {
  $ref?: string;
  content?: Record<string, { schema: Record<string, unknown> }>;
}
interface Operation {
  operationId: string;
  tags?: string[];
  parameters?: Parameter[];
  requestBody?: unknown;
  responses: Record<string, Response>;
  security?: Record<string, string[]>[];
}
interface OpenApiDocument {
  components: {
    responses?: Record<string, Response>;
    parameters?: Record<string, Parameter>;
    securitySchemes?: Record<string, Record<string, unknown>>;
  };
  servers?: { url: string }[];
  tags?: { name: string; description?: string }[];
  paths: Record<string, Record<string, Operation>>;
}

/**
 * The committed form: two-space indents, a final newline, object keys sorted, except the
 * properties of a schema, which keep the order their DTO declares them in.
 */
function canonicalJson(document: Json): string {
  const sort = (value: Json, keepOrder = false): Json => {
    if (Array.isArray(value)) return value.map((item) => sort(item));
    if (value === null || typeof value !== 'object') return value;
    const keys = keepOrder ? Object.keys(value) : Object.keys(value).sort();
    return Object.fromEntries(keys.map((key) => [key, sort(value[key], key === 'properties')]));
  };
  return `${JSON.stringify(sort(document), null, 2)}\n`;
}

/** A component a `$ref` names (`#/components/responses/X`), or the object itself. */
function resolved<T extends { $ref?: string }>(document: OpenApiDocument, value: T): T {
  if (!value.$ref) return value;
  const [, kind, name] = /^#\/components\/(\w+)\/(.+)$/.exec(value.$ref) ?? [];
  return (document.components as Record<string, Record<string, T>>)[kind][name];
}

function operationsOf(document: OpenApiDocument) {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => ({
      where: `${method.toUpperCase()} ${path}`,
      path,
      method,
      operation,
    })),
  );
}

describe('The OpenAPI document', () => {
  let app: TestApp;
  let served: Json;
  let document: OpenApiDocument;

  beforeAll(async () => {
    app = await startTestApp({ workers: 0 });
    served = (await request(app.http).get('/Profiles/v4/docs-json').expect(200)).body as Json;
    document = served as unknown as OpenApiDocument;
  });

  afterAll(async () => {
    await app?.close();
  });

  it('is committed as openapi.json', () => {
    const text = canonicalJson(served);
    if (process.env.OPENAPI_WRITE === '1') {
      writeFileSync(COMMITTED, text);
      return;
    }
    let committed = '';
    try {
      committed = readFileSync(COMMITTED, 'utf8');
    } catch {
      // Missing: reported below.
    }
    if (committed !== text) {
      const served = text.split('\n');
      const kept = committed.split('\n');
      const line = served.findIndex((content, index) => content !== kept[index]);
      throw new Error(
        'openapi.json is not the document the api serves: run npm run openapi:write (and commit it).\n' +
          `First difference, line ${line + 1}:\n  served:    ${served[line]}\n  committed: ${kept[line]}`,
      );
    }
  });

  it('declares its server, its tags in order, and the tag of every operation', () => {
    expect(document.servers).toEqual([expect.objectContaining({ url: '/' })]);
    const declared = (document.tags ?? []).map((tag) => tag.name);
    expect(declared.slice(0, 3)).toEqual(['Authentication', 'Profiles', 'Profile search']);
    const used = new Set(operationsOf(document).flatMap(({ operation }) => operation.tags ?? []));
    expect([...used].filter((tag) => !declared.includes(tag))).toEqual([]);
  });

  /**
   * Public operations under a client: the preference centre's page and one-click
   * unsubscribe, where the signed link is the credential (docs/preference-centre.md): each
   * requires its link's signed query parameters together (apiKey schemes in the query);
   * and the reporting page (docs/reports.md), likewise with its own link's parameters.
   */
  const PAGE_LINK = {
    preferenceCentreLinkProfile: [],
    preferenceCentreLinkExpiry: [],
    preferenceCentreLinkSignature: [],
  };
  const UNSUBSCRIBE_LINK = { ...PAGE_LINK, preferenceCentreLinkScope: [] };
  const PUBLIC_TENANT_OPERATIONS: Record<string, object> = {
    'GET /Profiles/v4/{clientId}/PreferenceCentre': PAGE_LINK,
    'POST /Profiles/v4/{clientId}/PreferenceCentre': PAGE_LINK,
    'GET /Profiles/v4/{clientId}/PreferenceCentre/Unsubscribe': UNSUBSCRIBE_LINK,
    'POST /Profiles/v4/{clientId}/PreferenceCentre/Unsubscribe': UNSUBSCRIBE_LINK,
    'GET /Profiles/v4/{clientId}/Reports/Page': {
      reportsPageLinkUser: [],
      reportsPageLinkExpiry: [],
      reportsPageLinkSignature: [],
    },
  };
  /** Operator operations naming a client: the operator credential, not a tenant's. */
  const OPERATOR_CLIENT_OPERATIONS = ['GET /Profiles/v4/Clients/{clientId}/Quotas'];
  const OPERATOR_SECURITY = JSON.stringify([{ bearer: [] }, { operatorBasic: [] }]);

  it('declares the link credential of the preference centre as apiKey schemes in the query', () => {
    const schemes = document.components.securitySchemes ?? {};
    expect(schemes.preferenceCentreLinkProfile).toMatchObject({
      type: 'apiKey',
      in: 'query',
      name: 'p',
    });
    expect(schemes.preferenceCentreLinkExpiry).toMatchObject({
      type: 'apiKey',
      in: 'query',
      name: 'e',
    });
    expect(schemes.preferenceCentreLinkScope).toMatchObject({
      type: 'apiKey',
      in: 'query',
      name: 'u',
    });
    expect(schemes.preferenceCentreLinkSignature).toMatchObject({
      type: 'apiKey',
      in: 'query',
      name: 's',
    });
    // The GPC support resource: public, outside the prefix and any client.
    expect(document.paths['/.well-known/gpc.json'].get.security).toEqual([]);
  });

  it('declares {clientId} and the security of every tenant operation, and the link on the public ones', () => {
    const problems: string[] = [];
    for (const { where, path, operation } of operationsOf(document)) {
      const security = JSON.stringify(operation.security);
      if (path.includes('{clientId}')) {
        const first = operation.parameters?.[0];
        if (first?.name !== 'clientId' || first.in !== 'path' || first.schema?.type !== 'string') {
          problems.push(`${where}: {clientId} is not its first parameter`);
        }
        if (where in PUBLIC_TENANT_OPERATIONS) {
          // One requirement naming every scheme of the link (in any order): all at once.
          const names = (operation.security ?? []).map((r) => Object.keys(r).sort());
          const expected = [Object.keys(PUBLIC_TENANT_OPERATIONS[where]).sort()];
          if (JSON.stringify(names) !== JSON.stringify(expected))
            problems.push(`${where}: security ${security}, expected ${JSON.stringify(expected)}`);
        } else if (OPERATOR_CLIENT_OPERATIONS.includes(where)) {
          if (security !== OPERATOR_SECURITY) problems.push(`${where}: security ${security}`);
        } else if (security !== JSON.stringify([{ bearer: [] }, { CUSTOMAUTH3: [] }])) {
          problems.push(`${where}: security ${security}`);
        }
      }
    }
    expect(problems).toEqual([]);
    expect(document.paths['/oauth2/v1/token'].post.security).toEqual([]);
    expect(document.paths['/oauth2/v1/token'].post.parameters).toEqual([]);
    expect(document.paths['/Profiles/v4/Jobs/Status'].get.security).toEqual([
      { bearer: [] },
      { operatorBasic: [] },
    ]);
  });

  it('types every parameter, with bounds on integer ids', () => {
    const problems: string[] = [];
    for (const { where, operation } of operationsOf(document)) {
      for (const parameter of (operation.parameters ?? []).map((p) => resolved(document, p))) {
        const schema = parameter.schema ?? {};
        if (!schema.type) problems.push(`${where}: ${parameter.name} has no type`);
        if (parameter.in === 'path' && schema.type === 'integer' && schema.minimum !== 1) {
          problems.push(`${where}: the id ${parameter.name} has no minimum 1`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('answers every error with ErrorDto, and declares the answers of the global hooks', () => {
    const problems: string[] = [];
    for (const { where, operation } of operationsOf(document)) {
      const statuses = Object.keys(operation.responses);
      const expected = ['429', '503', ...(operation.requestBody ? ['413', '415'] : [])];
      for (const status of expected) {
        if (!statuses.includes(status)) problems.push(`${where}: no ${status}`);
      }
      for (const [status, declared] of Object.entries(operation.responses)) {
        if (Number(status) < 400) continue;
        const response = resolved(document, declared);
        const schema = JSON.stringify(response.content?.['application/json']?.schema ?? {});
        // The preference centre's pages answer their own errors as pages (HTML).
        const page =
          where in PUBLIC_TENANT_OPERATIONS && response.content?.['text/html'] !== undefined;
        if (page) continue;
        const direct = schema === JSON.stringify({ $ref: ERROR_REF });
        const extended = schema.startsWith(`{"allOf":[{"$ref":"${ERROR_REF}"}`);
        if (!direct && !extended) problems.push(`${where} ${status}: ${schema}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('links a profile create to what reads and changes the profile', () => {
    const created = document.paths['/Profiles/v4/{clientId}/Profile'].post.responses['202'];
    const links = (created as { links?: Record<string, { operationId: string }> }).links ?? {};
    expect(Object.values(links).map((link) => link.operationId)).toEqual(
      expect.arrayContaining([
        'ProfileController_get',
        'ProfileController_patch',
        'ProfileController_delete',
        'ProfileHistoryController_standardFields',
      ]),
    );
  });
});
