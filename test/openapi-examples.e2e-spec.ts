import request from 'supertest';
import { configureTestTenant } from './harness/configuration';
import { createTestTenant, type TestTenant } from './harness/session';
import { eventually, startTestApp, type TestApp } from './harness/test-app';

/*
 * The service accepts every request-body example of its OpenAPI document (the served one,
 * /Profiles/v4/docs-json): each example is sent to its operation and answers one of the
 * operation's documented success statuses. The tenant has the configuration the examples
 * assume (EXAMPLE_CONFIGURATION: configureTestTenant), and the operations are walked in an
 * order where what an example refers to exists: configuration first (the ids its creates
 * answer fill the later paths), then profiles (the full profile example is the one the
 * others change), then what refers to profiles. That the examples pass their schemas is
 * apps/api/src/openapi/openapi-examples.spec.ts.
 */

interface MediaType {
  example?: unknown;
  examples?: Record<string, { value: unknown }>;
  schema?: { example?: unknown };
}
interface Operation {
  operationId: string;
  requestBody?: { content: Record<string, MediaType> };
  responses: Record<string, unknown>;
}
interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
}

/** An operation of the document by its id, with its path and method. */
interface Located {
  path: string;
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  operation: Operation;
}

/** How one operation's examples are sent: its path parameters, query and credential. */
interface Send {
  params?: Record<string, string | number>;
  query?: Record<string, string>;
  /** The Authorization header, '' for none (default: the tenant's bearer). */
  authorization?: string | ((example: unknown) => string);
  /** The body to send instead of the example (the example's placeholders replaced). */
  body?: (example: unknown) => unknown;
  /** Where to send it instead of the operation's path (a signed link). */
  url?: string;
}

/** The answers the walk reads ids from. */
type Answer = request.Response;

/**
 * Operations with a request body the walk does not send, and why (each is also listed, so
 * an operation added without an example walk fails the last test).
 */
const NOT_SENT: Record<string, string> = {
  CentrePageController_save:
    "the form's choice ids (shown=<id>) are those the person's page shows, and the page is behind a signed link; test/preference-centre/*.e2e-spec.ts sends the form",
};

describe('The request-body examples of the OpenAPI document', () => {
  let app: TestApp;
  let tenant: TestTenant;
  let auth: string;
  let document: OpenApiDocument;
  const sent = new Set<string>();

  beforeAll(async () => {
    app = await startTestApp({
      env: { RATE_LIMIT_READS_PER_SECOND: '0', RATE_LIMIT_WRITES_PER_SECOND: '0' },
    });
    tenant = await createTestTenant(app);
    auth = await tenant.bearer();
    await configureTestTenant(app, tenant);
    document = (await request(app.http).get('/Profiles/v4/docs-json').expect(200))
      .body as OpenApiDocument;
  });
  afterAll(() => app?.close());

  function locate(operationId: string): Located {
    for (const [path, item] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        if (operation.operationId === operationId) {
          return { path, method: method as Located['method'], operation };
        }
      }
    }
    throw new Error(`No operation ${operationId} in the document`);
  }

  /** The examples of each media type of the operation's request body. */
  function examplesOf(operation: Operation): { mediaType: string; name: string; value: unknown }[] {
    return Object.entries(operation.requestBody?.content ?? {}).flatMap(([mediaType, media]) => {
      const named = Object.entries(media.examples ?? {}).map(([name, example]) => ({
        mediaType,
        name,
        value: example.value,
      }));
      const single = media.example ?? media.schema?.example;
      return named.length || single === undefined
        ? named
        : [{ mediaType, name: 'example', value: single }];
    });
  }

  /**
   * Sends every example of `operationId` and expects a documented success status of each;
   * answers the responses, by example name (and media type when it has several).
   */
  async function sendExamples(operationId: string, how: Send = {}): Promise<Answer[]> {
    const { path, method, operation } = locate(operationId);
    const success = Object.keys(operation.responses)
      .filter((status) => /^2\d\d$/.test(status))
      .map(Number);
    const params: Record<string, string | number> = { clientId: tenant.clientId, ...how.params };
    const url =
      how.url ??
      path.replace(/\{([^}]+)\}/g, (_, name: string) => {
        if (params[name] === undefined) throw new Error(`${operationId}: no value for {${name}}`);
        return encodeURIComponent(String(params[name]));
      });
    const examples = examplesOf(operation);
    if (!examples.length) throw new Error(`${operationId} has no request-body example`);
    const answers: Answer[] = [];
    for (const example of examples) {
      const body = how.body ? how.body(example.value) : example.value;
      let test = request(app.http)
        [method](url)
        .query(how.query ?? {});
      const authorization =
        typeof how.authorization === 'function'
          ? how.authorization(example.value)
          : (how.authorization ?? auth);
      if (authorization) test = test.set('Authorization', authorization);
      if (example.mediaType === 'application/x-www-form-urlencoded') {
        test = test.type('form').send(body as Record<string, string>);
      } else if (example.mediaType === 'application/x-ndjson') {
        test = test.set('Content-Type', example.mediaType).send(String(body));
      } else {
        test = test.set('Content-Type', example.mediaType).send(JSON.stringify(body));
      }
      const answer = await test;
      expect({
        operationId,
        example: `${example.mediaType} ${example.name}`,
        status: answer.status,
        body: success.includes(answer.status) ? 'a success' : answer.body,
      }).toEqual({
        operationId,
        example: `${example.mediaType} ${example.name}`,
        status: success.includes(answer.status) ? answer.status : `one of ${success.join(', ')}`,
        body: 'a success',
      });
      answers.push(answer);
    }
    sent.add(operationId);
    return answers;
  }

  /**
   * Waits until every accepted write of the profile is applied, and expects none of them
   * refused when applied (a queued write is accepted with 202 before it is applied).
   */
  async function applied(profileId: number): Promise<void> {
    const updates = await eventually(async () => {
      const res = await request(app.http)
        .get(`/Profiles/v4/${tenant.clientId}/Profile/${profileId}/Updates`)
        .set('Authorization', auth);
      const list = res.body.Updates as { Operation: string; Status: string }[] | undefined;
      return res.status === 200 && list?.every((update) => update.Status !== 'Pending Update')
        ? list
        : undefined;
    });
    expect(updates.filter((update) => update.Status !== 'Complete')).toEqual([]);
  }

  const TYPE_KINDS = [
    'AddressTypes',
    'AlternateIdTypes',
    'CustomerTypes',
    'GroupTypes',
    'EmailTypes',
    'PhoneTypes',
  ];

  // The configuration the later examples refer to is made by the earlier ones: one walk.
  const ids: Record<string, number> = {};

  it('of the Configuration API are accepted', async () => {
    for (const kind of TYPE_KINDS) {
      const [created] = await sendExamples(`${kind}Controller_create`);
      const typeId = (created.body[kind] as { TypeId: number }[])[0].TypeId;
      // The route and its older alias take the same (repeatable) operations.
      await sendExamples(`${kind}Controller_patch[0]`, { params: { typeId } });
      await sendExamples(`${kind}Controller_patch[1]`, { params: { typeId } });
    }

    const [consentTypes] = await sendExamples('ConsentTypesController_create');
    const [first, second] = (consentTypes.body.ConsentTypes as { TypeId: number }[]).map(
      (type) => type.TypeId,
    );
    // A version is published once per type: the alias publishes on the other type.
    await sendExamples('ConsentTypesController_publish[0]', { params: { typeId: first } });
    await sendExamples('ConsentTypesController_publish[1]', { params: { typeId: second } });
    await sendExamples('ConsentTypesController_update[0]', { params: { typeId: first } });
    await sendExamples('ConsentTypesController_update[1]', { params: { typeId: second } });

    const [picklists] = await sendExamples('PicklistsController_create');
    const picklistId = (picklists.body.Picklists as { Id: number }[])[0].Id;
    // The SelectList examples name picklist 1: the first picklist of the client.
    expect(picklistId).toBe(1);
    await sendExamples('PicklistsController_update[0]', { params: { Id: picklistId } });
    await sendExamples('PicklistsController_update[1]', { params: { Id: picklistId } });

    const [text] = await sendExamples('CustomFieldsController_createText');
    const textFieldId = (text.body.TextFields as { Id: number }[])[0].Id;
    await sendExamples('CustomFieldsController_createNumeric');
    await sendExamples('CustomFieldsController_createDateTime');
    await sendExamples('CustomFieldsController_createSelectList');
    await sendExamples('CustomFieldsController_createAny');
    const field = { fieldType: 'Text', Id: textFieldId };
    await sendExamples('CustomFieldsController_update[0]', { params: field });
    await sendExamples('CustomFieldsController_update[1]', { params: field });

    const [programs] = await sendExamples('ProgramsController_create');
    const program = (programs.body.Programs as { Id: number; Filters: { ID: number }[] }[])[0];
    ids.programId = program.Id;
    const filterId = program.Filters[0].ID;
    await sendExamples('ProgramsController_update', { params: { programId: program.Id } });
    await sendExamples('ProgramsController_addFilters', { params: { programId: program.Id } });
    await sendExamples('FiltersController_update', { params: { filterId } });
    await sendExamples('FiltersController_replaceRequiredConsents', { params: { filterId } });
    await sendExamples('ConfigRoutesController_replaceRequiredConsents', { params: { filterId } });
    await sendExamples('ConfigRoutesController_setCustomProperties', {
      params: { entity: 'Program' },
    });

    const [groups] = await sendExamples('ProgramGroupsController_create');
    const programGroupId = (groups.body.ProgramGroups as { Id: number }[])[0].Id;
    await sendExamples('ProgramGroupsController_update', { params: { programGroupId } });

    const [confirmation] = await sendExamples('ConfirmationSettingsController_replace');
    expect(confirmation.body).toMatchObject({ TimeToLiveHours: 48 });
  });

  it('of the Data API and what refers to profiles are accepted', async () => {
    const [full, minimal] = await sendExamples('ProfileController_create');
    const profileId = full.body.ProfileId as number;
    const otherProfileId = minimal.body.ProfileId as number;
    // The decision example asks about profile 1: the full profile, the client's first.
    expect(profileId).toBe(1);
    await applied(profileId);

    const byCrmId = { alternateIdType: 'CRM', alternateId: 'C-1001' };
    await sendExamples('ProfileController_merge', { params: { profileId } });
    await sendExamples('ProfileController_overwrite', { params: { profileId } });
    await sendExamples('ProfileController_patch', { params: { profileId } });
    await sendExamples('ProfileAlternateIdController_upsert', { query: byCrmId });
    await sendExamples('ProfileAlternateIdController_overwrite', { query: byCrmId });
    await sendExamples('ProfileAlternateIdController_patch', { query: byCrmId });
    await applied(profileId);

    // The merge example absorbs the profile holding CRM id C-2002: a duplicate of Ann.
    const duplicate = await request(app.http)
      .post(`/Profiles/v4/${tenant.clientId}/Profile`)
      .set('Authorization', auth)
      .send({
        CustomerType: 'Customer',
        CustomerName: { FirstName: 'Ann', LastName: 'Lee' },
        AlternateIds: [{ AlternateIdType: 'CRM', AlternateId: 'C-2002' }],
      })
      .expect(202);
    await applied(duplicate.body.ProfileId as number);
    await sendExamples('ProfileMergeController_merge', { params: { profileId } });
    await applied(profileId);

    await sendExamples('GroupsController_rename', { params: { groupType: 'Household' } });
    await sendExamples('ContactDecisionController_decideMany');
    await sendExamples('ProfileDataSubjectController_check');
    const [link] = await sendExamples('CentreLinksController_create', { params: { profileId } });
    const unsubscribe = new URL(link.body.UnsubscribeUrl as string, 'http://localhost');
    await sendExamples('CentrePageController_unsubscribe', {
      url: `${unsubscribe.pathname}${unsubscribe.search}`,
      authorization: '',
    });
    await applied(profileId);
    await sendExamples('PreferenceArchiveController_archive', { params: { profileId } });
    await sendExamples('ProfileDataSubjectController_erase', {
      params: { profileId: otherProfileId },
    });
  });

  it('of do-not-contact lists, events, bulk, reports and tokens are accepted', async () => {
    const [emailList] = await sendExamples('DoNotContactController_create');
    await sendExamples('DoNotContactController_add', {
      params: { listId: emailList.body.ListId as number },
    });

    const [subscription] = await sendExamples('EventSubscriptionsController_create');
    await sendExamples('EventSubscriptionsController_update', {
      params: { subscriptionId: subscription.body.SubscriptionId as string },
    });

    const [bulkImport] = await sendExamples('BulkImportController_initiate');
    // The JSON array and the NDJSON example, staged into the same import.
    const staged = await sendExamples('BulkImportController_stage', {
      params: { accessToken: bulkImport.body.AccessToken as number },
    });
    // A record the checks refuse is an exception record, not a refused call: none is.
    expect(staged.map((answer) => answer.body.ValidationFailed as number)).toEqual([0, 0]);
    expect(staged.at(-1)?.body.ValidationSuccessful).toBe(4);
    await sendExamples('BulkExportController_initiate');
    await sendExamples('OlderExportController_initiate', { params: { segment: 'crm-weekly' } });

    // The operator's example names the README's client: sent for this test's client.
    await sendExamples('ReportRebuildsController_rebuild', {
      authorization: `Bearer ${app.settings.operatorToken}`,
      body: (example) => ({ ...(example as object), ClientId: tenant.clientId }),
    });
    // The token examples' scope and credentials are made up: sent with this client's.
    const basic = Buffer.from(`${tenant.oauthClientId}:${tenant.oauthClientSecret}`).toString(
      'base64',
    );
    await sendExamples('TokenController_issue', {
      // The example without credential fields sends them as Basic.
      authorization: (example) =>
        (example as Record<string, string>).client_id ? '' : `Basic ${basic}`,
      body: (example) => {
        const form = { ...(example as Record<string, string>) };
        form.scope = `${tenant.clientId}/${tenant.userId}`;
        if (form.client_id) form.client_id = tenant.oauthClientId;
        if (form.client_secret) form.client_secret = tenant.oauthClientSecret;
        return form;
      },
    });
  });

  it('are all sent (every operation with a request body but those NOT_SENT says why)', () => {
    const withBody = Object.values(document.paths)
      .flatMap((item) => Object.values(item))
      .filter((operation) => operation.requestBody)
      .map((operation) => operation.operationId);
    expect(withBody.filter((id) => !sent.has(id) && !NOT_SENT[id]).sort()).toEqual([]);
    expect(sent.size).toBeGreaterThan(60);
  });
});
