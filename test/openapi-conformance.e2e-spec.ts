import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import request from 'supertest';
import { configureTestTenant, localized, type TestPrograms } from './harness/configuration';
import { fullProfileBodyOn } from './harness/profile-fixtures';
import { createTestTenant, type TestTenant } from './harness/session';
import { eventually, startTestApp, type TestApp } from './harness/test-app';

/*
 * The served OpenAPI document against the server it describes: the answers of real calls
 * validate against the schemas the document declares for their status, every status they
 * answer is declared, every schema the document closes (additionalProperties: false) is
 * refused with an unknown field by the server, and the links of a create lead somewhere.
 */

type Schema = Record<string, unknown>;
interface Operation {
  operationId: string;
  security?: Record<string, string[]>[];
  parameters?: { name: string; in: string; required?: boolean; schema?: Schema }[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<
    string,
    {
      content?: Record<string, { schema: Schema }>;
      links?: Record<string, { operationId: string; parameters: Record<string, string> }>;
    }
  >;
}
interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema>; responses: Operation['responses'] };
}

const PREFIX = '/Profiles/v4';
const UNKNOWN = 'ZzUnknownField';

describe('The OpenAPI document agrees with the server', () => {
  let app: TestApp;
  let tenant: TestTenant;
  let auth: string;
  let programs: TestPrograms;
  let document: OpenApiDocument;
  let ajv: Ajv;
  const validators = new Map<string, ValidateFunction>();

  beforeAll(async () => {
    app = await startTestApp();
    tenant = await createTestTenant(app);
    ({ programs } = await configureTestTenant(app, tenant));
    auth = await tenant.bearer();
    document = (await request(app.http).get(`${PREFIX}/docs-json`).expect(200))
      .body as OpenApiDocument;
    ajv = new Ajv({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addFormat('int32', {
      type: 'number',
      validate: (value: number) => Number.isInteger(value) && Math.abs(value) <= 2 ** 31,
    });
    ajv.addSchema({ components: document.components }, 'openapi.json');
  });

  afterAll(async () => {
    await app?.close();
  });

  function operation(method: string, template: string): Operation {
    const found = document.paths[template]?.[method];
    if (!found) throw new Error(`the document has no ${method.toUpperCase()} ${template}`);
    return found;
  }

  function validatorOf(schema: Schema): ValidateFunction {
    const text = JSON.stringify(schema).replace(/"#\/components\//g, '"openapi.json#/components/');
    let validate = validators.get(text);
    if (!validate) {
      validate = ajv.compile(JSON.parse(text) as Schema);
      validators.set(text, validate);
    }
    return validate;
  }

  /** What is wrong with an answer by the document; empty when nothing. */
  function nonConformance(method: string, template: string, response: request.Response): string[] {
    let declared = operation(method, template).responses[String(response.status)];
    const ref = (declared as { $ref?: string } | undefined)?.$ref;
    if (ref) declared = document.components.responses[ref.replace('#/components/responses/', '')];
    const where = `${method.toUpperCase()} ${template} ${response.status}`;
    if (!declared) return [`${where}: the status is not declared`];
    const schema = declared.content?.['application/json']?.schema;
    if (!schema) {
      return response.text ? [`${where}: a body is answered, none is declared`] : [];
    }
    if (!/^application\/json/.test(String(response.headers['content-type']))) {
      return [`${where}: answered ${response.headers['content-type']}, not JSON`];
    }
    const validate = validatorOf(schema);
    if (validate(response.body)) return [];
    // One line per problem, whatever element of a list has it.
    const problems = (validate.errors ?? []).map(
      (error) =>
        `${where}: ${error.instancePath.replace(/\/\d+(?=\/|$)/g, '/*') || '(body)'} ${error.message} ${JSON.stringify(error.params)}`,
    );
    return [...new Set(problems)];
  }

  function url(template: string, parameters: Record<string, string | number>): string {
    return template.replace(/\{([^}]+)\}/g, (_, name: string) => {
      const value = name === 'clientId' ? tenant.clientId : parameters[name];
      if (value === undefined) throw new Error(`no value for {${name}} of ${template}`);
      return encodeURIComponent(String(value));
    });
  }

  /** Calls an operation of the document and checks its answer against it. */
  async function call(
    method: string,
    template: string,
    options: {
      path?: Record<string, string | number>;
      query?: Record<string, string>;
      body?: unknown;
      authorization?: string | null;
    } = {},
  ): Promise<request.Response> {
    const test = request(app.http)[method as 'get'](url(template, options.path ?? {}));
    if (options.authorization !== null)
      void test.set('Authorization', options.authorization ?? auth);
    if (options.query) void test.query(options.query);
    const response = await (options.body === undefined ? test : test.send(options.body as object));
    expect(nonConformance(method, template, response)).toEqual([]);
    return response;
  }

  it('describes the configuration answers', async () => {
    const config = `${PREFIX}/{clientId}`;
    for (const kind of ['AddressTypes', 'CustomerTypes', 'ConsentTypes', 'CustomFields']) {
      expect((await call('get', `${config}/${kind}`)).status).toBe(200);
      expect((await call('get', `${config}/${kind}`, { query: { locale: 'en-us' } })).status).toBe(
        200,
      );
    }
    const consentTypes = await call('get', `${config}/ConsentTypes`, {
      query: { latestVersionOnly: 'true' },
    });
    const typeId = (consentTypes.body as { ConsentTypes: { TypeId: number }[] }).ConsentTypes[0]
      .TypeId;
    expect(
      (await call('get', `${config}/ConsentTypes/{typeId}/History`, { path: { typeId } })).status,
    ).toBe(200);
    expect(
      (
        await call('post', `${config}/ConsentTypes/{typeId}/Versions`, {
          path: { typeId },
          body: {
            ConsentVersion: '2.0',
            LocalizedFields: [{ ConsentLanguage: 'I agree', Locale: 'en-us', Name: 'v2' }],
          },
        })
      ).status,
    ).toBe(201);
    for (const path of [
      'ConsentStatus',
      'Tags',
      'CustomFields/UpdateRules',
      'Programs',
      'Programs/IncludeAll',
      'ProgramGroups',
      'Picklists',
      'DoNotContactLists',
    ]) {
      expect((await call('get', `${config}/${path}`)).status).toBe(200);
    }
    const picklists = await call('post', `${config}/Picklists`, {
      body: {
        Picklists: [
          {
            Name: 'Colours',
            FieldSelectOptions: [{ Value: 'Red', LocalizedNames: localized('Red') }],
          },
        ],
      },
    });
    expect(picklists.status).toBe(201);
    const fields = await call('post', `${config}/CustomFields/SelectList`, {
      body: {
        SelectListFields: [
          {
            Name: 'Colour',
            LocalizedDisplayNames: localized('Colour'),
            DisplayType: 'SingleSelect',
            PicklistId: (picklists.body as { Picklists: { Id: number }[] }).Picklists[0].Id,
          },
        ],
      },
    });
    expect(fields.status).toBe(201);
    const groups = await call('post', `${config}/ProgramGroups`, {
      body: {
        ProgramGroups: [{ Name: 'All', ProgramIds: [Number(programs.newsletter.email.ProgramId)] }],
      },
    });
    expect(groups.status).toBe(201);
    expect((await call('get', `${config}/ProgramGroups/IncludeAll`)).status).toBe(200);
    const list = await call('post', `${config}/DoNotContactLists`, {
      body: { Name: 'Blocked', ListType: 'Email' },
    });
    expect(list.status).toBe(201);
    const listId = (list.body as { ListId: number }).ListId;
    const entries = `${config}/DoNotContactLists/{listId}/Entries`;
    expect(
      (
        await call('post', entries, {
          path: { listId },
          body: { Entries: [{ Value: 'no@example.com' }] },
        })
      ).status,
    ).toBe(200);
    expect((await call('get', entries, { path: { listId } })).status).toBe(200);
  });

  it('describes the answers of a profile, from its create through the links of the 202', async () => {
    const profile = `${PREFIX}/{clientId}/Profile`;
    const created = await call('post', profile, {
      body: fullProfileBodyOn(programs, 'C-OPENAPI-1'),
    });
    expect(created.status).toBe(202);
    const { ProfileId: profileId } = created.body as { ProfileId: number };
    await eventually(async () => {
      const res = await request(app.http)
        .get(url(`${profile}/{profileId}`, { profileId }))
        .set('Authorization', auth);
      return res.body?.UpdateStatus === 'Complete' ? true : undefined;
    });

    // Every GET the create links to answers as documented, with the parameters the link names.
    const links = operation('post', profile).responses['202'].links ?? {};
    const byId = new Map(
      Object.entries(document.paths).flatMap(([template, item]) =>
        Object.entries(item).map(([method, op]) => [op.operationId, { method, template }]),
      ),
    );
    let followed = 0;
    for (const link of Object.values(links)) {
      const target = byId.get(link.operationId)!;
      if (target.method !== 'get') continue;
      const path: Record<string, string | number> = {};
      for (const [name, expression] of Object.entries(link.parameters)) {
        if (expression === '$response.body#/ProfileId') path[name] = profileId;
      }
      expect((await call('get', target.template, { path })).status).toBe(200);
      followed++;
    }
    expect(followed).toBeGreaterThanOrEqual(7);

    const pair = { alternateIdType: 'CRM', alternateId: 'C-OPENAPI-1' };
    expect((await call('get', `${profile}/AlternateId`, { query: pair })).status).toBe(200);
    expect(
      (await call('get', `${profile}/AlternateId/History/StandardFields`, { query: pair })).status,
    ).toBe(200);
    for (const [path, query] of [
      ['Email', { emailAddress: 'jane@example.com' }],
      ['Phone', { phoneNumber: '+1 (555) 010-2030' }],
      ['Name', { lastName: 'Doe' }],
      ['Tags', { 'tags[0]': 'vip' }],
      ['CustomFields', { 'customFields[0].Name': 'Tier', 'customFields[0].Value': 'Gold' }],
      ['GroupProfiles/Group', { groupType: 'Household', groupName: 'Doe family' }],
    ] as const) {
      expect((await call('get', `${profile}/${path}`, { query })).status).toBe(200);
    }
    expect(
      (
        await call('get', `${profile}/GroupProfiles/{profileId}`, {
          path: { profileId },
          query: { groupType: 'Household' },
        })
      ).status,
    ).toBe(200);

    const patched = await call('patch', `${profile}/{profileId}`, {
      path: { profileId },
      body: [{ op: 'replace', path: '/CustomerName/FirstName', value: 'Janet' }],
    });
    expect([200, 202]).toContain(patched.status);
    expect(
      (
        await call('post', `${profile}/{profileId}`, {
          path: { profileId },
          body: { ReasonCode: 'merge' },
        })
      ).status,
    ).toBe(202);
    expect([202, 204]).toContain(
      (await call('delete', `${profile}/{profileId}`, { path: { profileId } })).status,
    );
  });

  it('describes the error answers', async () => {
    const profile = `${PREFIX}/{clientId}/Profile/{profileId}`;
    expect((await call('get', profile, { path: { profileId: 2147483647 } })).status).toBe(404);
    expect((await call('get', profile, { path: { profileId: 'abc' } })).status).toBe(400);
    expect(
      (await call('get', profile, { path: { profileId: 1 }, authorization: null })).status,
    ).toBe(401);
    const create = `${PREFIX}/{clientId}/Profile`;
    const tooLarge = await request(app.http)
      .post(url(create, {}))
      .set('Authorization', auth)
      .set('Content-Type', 'application/json')
      .send(JSON.stringify({ ReasonCode: 'x'.repeat(1100 * 1024) }));
    expect(tooLarge.status).toBe(413);
    expect(nonConformance('post', create, tooLarge)).toEqual([]);
    const notJson = await request(app.http)
      .post(url(create, {}))
      .set('Authorization', auth)
      .set('Content-Type', 'text/plain')
      .send('hello');
    expect(notJson.status).toBe(415);
    expect(nonConformance('post', create, notJson)).toEqual([]);
    const token = await request(app.http)
      .post('/oauth2/v1/token')
      .type('form')
      .send({ grant_type: 'password' });
    expect(token.status).toBe(400);
    expect(nonConformance('post', '/oauth2/v1/token', token)).toEqual([]);
  });

  it("describes the token, the job status and a client's quotas, nulls included", async () => {
    const token = await request(app.http)
      .post('/oauth2/v1/token')
      .type('form')
      .send({
        grant_type: 'client_credentials',
        scope: `${tenant.clientId}/${tenant.userId}`,
        client_id: tenant.oauthClientId,
        client_secret: tenant.oauthClientSecret,
      });
    expect(token.status).toBe(200);
    expect(nonConformance('post', '/oauth2/v1/token', token)).toEqual([]);
    const status = await call('get', `${PREFIX}/Jobs/Status`, {
      authorization: `Bearer ${app.settings.operatorToken}`,
    });
    expect(status.status).toBe(200);
    // No job ran in this app: LastRun is null, and the schema says it may be.
    expect((status.body as { Jobs: { LastRun: unknown }[] }).Jobs[0].LastRun).toBeNull();
    const operator = `Bearer ${app.settings.operatorToken}`;
    const quotas = `${PREFIX}/Clients/{clientId}/Quotas`;
    expect((await call('get', quotas, { authorization: operator })).status).toBe(200);
    const unknown = await request(app.http)
      .get(`${PREFIX}/Clients/no-such-client/Quotas`)
      .set('Authorization', operator);
    expect(unknown.status).toBe(404);
    expect(nonConformance('get', quotas, unknown)).toEqual([]);
    expect((await call('get', quotas)).status).toBe(401);
  });

  /**
   * A body that reaches the schema `target` from `schema` and puts an unknown field there,
   * or undefined when it is not reachable.
   */
  function bodyWithUnknownAt(schema: Schema, target: string, seen = new Set<string>()): unknown {
    const ref = schema.$ref as string | undefined;
    if (ref) {
      const name = ref.replace('#/components/schemas/', '');
      if (name === target) return { [UNKNOWN]: 1 };
      if (seen.has(name)) return undefined;
      return bodyWithUnknownAt(document.components.schemas[name], target, new Set([...seen, name]));
    }
    if (schema.type === 'array' && schema.items) {
      const item = bodyWithUnknownAt(schema.items as Schema, target, seen);
      return item === undefined ? undefined : [item];
    }
    for (const part of (schema.allOf as Schema[] | undefined) ?? []) {
      const found = bodyWithUnknownAt(part, target, seen);
      if (found !== undefined) return found;
    }
    for (const [name, property] of Object.entries(
      (schema.properties as Record<string, Schema>) ?? {},
    )) {
      // What a read-only property holds is ignored (or refused) as a whole.
      if (property.readOnly) continue;
      const found = bodyWithUnknownAt(property, target, seen);
      if (found !== undefined) return { [name]: found };
    }
    return undefined;
  }

  it('refuses an unknown field wherever a request schema is closed', async () => {
    // Entries the routes with a body address (their handlers may look them up first).
    const accepted = await request(app.http)
      .post(`${PREFIX}/${tenant.clientId}/Profile`)
      .set('Authorization', auth)
      .send(fullProfileBodyOn(programs, 'C-OPENAPI-2'))
      .expect(202);
    const profileId = (accepted.body as { ProfileId: number }).ProfileId;
    const groups = await request(app.http)
      .post(`${PREFIX}/${tenant.clientId}/ProgramGroups`)
      .set('Authorization', auth)
      .send({ ProgramGroups: [{ Name: 'Closed schemas' }] })
      .expect(201);
    const consentTypes = await request(app.http)
      .get(`${PREFIX}/${tenant.clientId}/ConsentTypes`)
      .set('Authorization', auth)
      .expect(200);
    const ids: Record<string, string | number> = {
      profileId,
      typeId: (consentTypes.body as { ConsentTypes: { TypeId: number }[] }).ConsentTypes[0].TypeId,
      Id: 1,
      programId: Number(programs.newsletter.email.ProgramId),
      filterId: Number(programs.newsletter.email.FilterId),
      programGroupId: (groups.body as { ProgramGroups: { Id: number }[] }).ProgramGroups[0].Id,
      listId: 1,
      groupType: 'Household',
      fieldType: 'Text',
      entity: 'Program',
      alternateIdType: 'CRM',
      alternateId: 'C-OPENAPI-2',
      // Bulk routes: the body is checked before the token or segment is looked at.
      segment: 'Everything',
      accessToken: 1,
      // Event subscriptions: the body is refused before the subscription is looked up.
      subscriptionId: 'x',
    };
    const checked = new Set<string>();
    const failures: string[] = [];
    for (const [template, item] of Object.entries(document.paths)) {
      for (const [method, op] of Object.entries(item)) {
        const schema = op.requestBody?.content['application/json']?.schema;
        if (!schema) continue;
        for (const name of closedSchemasOf(schema)) {
          const body = bodyWithUnknownAt(schema, name);
          if (body === undefined) continue;
          const query = Object.fromEntries(
            (op.parameters ?? [])
              .filter((parameter) => parameter.in === 'query' && parameter.required)
              .map((parameter) => [parameter.name, String(ids[parameter.name])]),
          );
          const response = await request(app.http)
            [method as 'post'](url(template, ids))
            .query(query)
            // Operator routes (the reports' rebuild) take the operator credential.
            .set(
              'Authorization',
              isOperatorRoute(op) ? `Bearer ${app.settings.operatorToken}` : auth,
            )
            .send(body as object);
          const message = String((response.body as { Message?: unknown })?.Message);
          if (response.status !== 400 || !message.includes(UNKNOWN)) {
            failures.push(
              `${method.toUpperCase()} ${template} (${name}): ${response.status} ${message}`,
            );
          }
          checked.add(name);
        }
      }
    }
    expect(failures).toEqual([]);
    const closed = Object.entries(document.components.schemas)
      .filter(([, schema]) => schema.additionalProperties === false)
      .map(([name]) => name);
    expect([...checked].sort()).toEqual(closed.sort());
  });

  /** Whether an operation takes the operator credential (it lists operatorBasic). */
  function isOperatorRoute(op: Operation): boolean {
    return (op.security ?? []).some((scheme) => 'operatorBasic' in scheme);
  }

  /** The closed schemas a request body schema reaches. */
  function closedSchemasOf(schema: Schema, seen = new Set<string>()): string[] {
    for (const match of JSON.stringify(schema).matchAll(/"#\/components\/schemas\/([^"]+)"/g)) {
      if (seen.has(match[1])) continue;
      seen.add(match[1]);
      closedSchemasOf(document.components.schemas[match[1]], seen);
    }
    return [...seen].filter(
      (name) => document.components.schemas[name].additionalProperties === false,
    );
  }
});
