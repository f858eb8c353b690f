import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import type {
  MediaTypeObject,
  OperationObject,
  ParameterObject,
  PathItemObject,
  ReferenceObject,
  ResponseObject,
  SchemaObject,
  TagObject,
} from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { CENTRE_LINK_SECURITY_SCHEMES } from '@app/preference-centre';
import { REPORT_PAGE_LINK_SECURITY_SCHEMES } from '@app/reports';
import { ErrorDto, EXAMPLE_CONFIGURATION, REQUEST_ONLY, STREAMED_BODY } from '@app/shared';

/*
 * The OpenAPI document the api serves at /Profiles/v4/docs-json (and the committed
 * openapi.json, `npm run openapi:write`). It is generated from the controllers and the DTOs
 * that validate the requests; this file adds only what no single route states, because a
 * global hook or interceptor does it for every route (the error body, 400, 413, 415, 429, 503,
 * Idempotency-Key, unknown clients), and then checks what generators and fuzzers rely on.
 */

/** The tags in the order the document lists them (a tag no entry names is appended). */
export const OPENAPI_TAGS: TagObject[] = [
  {
    name: 'Authentication',
    description:
      'OAuth 2.0 client credentials: the Bearer token the other operations take (they also take a signed CUSTOMAUTH3 header).',
  },
  {
    name: 'Profiles',
    description:
      'A profile by id or by alternate id: reads, queued writes (202, applied in acceptance order per profile) and their outcome.',
  },
  {
    name: 'Profile search',
    description:
      'Profiles by contact element, name, address, tags, custom fields, attributes or group membership (at most 50).',
  },
  { name: 'History', description: 'Every change of a profile, by category.' },
  { name: 'Groups', description: 'Groups of profiles.' },
  {
    name: 'Configuration',
    description:
      'Types, consent types, custom fields, picklists, tags and consent statuses of the account.',
  },
  {
    name: 'Configuration: programs',
    description: 'Programs, their filters and program groups (preference configuration).',
  },
  {
    name: 'Configuration: double opt-in',
    description:
      'Consents that count only once the person confirms them from their mailbox: the link time to live, the sender and the message per locale (docs/double-opt-in.md).',
  },
  {
    name: 'Do-not-contact lists',
    description: 'Email addresses and phone numbers not to contact.',
  },
  {
    name: 'Bulk import',
    description:
      'The Connectivity (Bulk) API: Initiate an import, Stage profile records (repeatable while its AccessToken is active), its Status and Exceptions (docs/bulk.md).',
  },
  {
    name: 'Bulk export',
    description:
      'The Connectivity (Bulk) API: Initiate an export of profiles, its Status, its Rows (pages) or Stream (NDJSON), Commit; and the older export routes (docs/bulk-export.md).',
  },
  {
    name: 'Events',
    description:
      "Event subscriptions (their validation handshake and signing secrets) and a profile's events (docs/events.md).",
  },
  {
    name: 'Consent receipts',
    description:
      "The hash chain of a profile's consent and preference history: signed receipts (Ed25519) of its entries, the chain's verification and the public keys (docs/receipts.md).",
  },
  { name: 'Jobs', description: 'The scheduled jobs, for operators (operator credential).' },
  {
    name: 'Quotas',
    description:
      "A client's quotas (its own or the defaults) and their use, for operators (operator credential).",
  },
  { name: 'Operations', description: 'Health and metrics, for monitors and orchestrators.' },
  {
    name: 'Data subject requests',
    description:
      "A person's export (everything held on a profile, a JSON download) and erasure (queued; an audit tombstone with salted hashes of the identifiers stays), and the check of identifiers against erased ones (docs/data-subject.md).",
  },
  {
    name: 'Contact decisions',
    description:
      'May we contact this person, here, for this, now? Allowed or not, with every reason and the history entry that proves it; one question or a batch of up to 1,000 (docs/decisions.md).',
  },
  {
    name: 'Double opt-in',
    description:
      "Consents that count only once the person confirms them from their own mailbox: the client's confirmation settings, a profile's confirmations and their states, and the public page of the link the message carries (docs/double-opt-in.md).",
  },
  {
    name: 'Preference centre',
    description:
      "The person's own page: signed, expiring links an operator makes for a profile, the HTML page behind them (public: the signature is the credential), its form and RFC 8058 one-click unsubscribe (docs/preference-centre.md).",
  },
  {
    name: 'Reports',
    description:
      "What a client's consents and preferences add up to, kept by the write path: the current counts, the daily series, their CSV, the reporting page behind a short-lived signed link, and the operator's rebuild (docs/reports.md).",
  },
];

const ERROR_REF = '#/components/schemas/ErrorDto';

/**
 * Request body schemas the server does not close: every other schema a JSON request body
 * reaches is refused with unknown fields (the global validation pipe's forbidNonWhitelisted,
 * validateInput, the PATCH pipes), so it gets `additionalProperties: false`
 * (test/openapi-conformance.e2e-spec.ts sends an unknown field to each).
 */
const OPEN_REQUEST_SCHEMAS = new Set<string>([]);

const RETRY_AFTER = {
  description: 'Seconds to wait before retrying',
  schema: { type: 'integer', minimum: 1 },
};

const ERROR_CONTENT = { 'application/json': { schema: { $ref: ERROR_REF } } };

/**
 * Answers of the HTTP hooks and interceptors every route passes through, declared once
 * (components.responses) and referred to by each operation that does not say otherwise.
 */
const GLOBAL_RESPONSES: Record<string, ResponseObject> = {
  BadRequest: {
    description:
      'Malformed request: a path that is not valid URL encoding, a malformed Idempotency-Key, a body that is not valid JSON or breaks the input bounds; the Message names it',
    content: ERROR_CONTENT,
  },
  UnknownClient: {
    description: "Unknown client (any client but the caller's own, which the auth guard hides)",
    content: ERROR_CONTENT,
  },
  PayloadTooLarge: { description: 'The request body is over 1 MiB', content: ERROR_CONTENT },
  UnsupportedMediaType: {
    description:
      'The request body has a media type the operation does not take (its requestBody lists the one it does; JSON bodies are also taken as text/json, application/json-patch+json and application/*+json), or no Content-Type',
    content: ERROR_CONTENT,
  },
  IdempotencyKeyRunning: {
    description: 'A request with the same Idempotency-Key is still running (Retry-After: 1)',
    headers: { 'Retry-After': RETRY_AFTER },
    content: ERROR_CONTENT,
  },
  IdempotencyKeyReused: {
    description: 'The Idempotency-Key was used with another request (method, path or body)',
    content: ERROR_CONTENT,
  },
  TooManyRequests: {
    description:
      "Over the client's rate limit for reads or writes per second (its own quota, else RATE_LIMIT_READS_PER_SECOND, RATE_LIMIT_WRITES_PER_SECOND); nothing was done",
    headers: { 'Retry-After': RETRY_AFTER },
    content: ERROR_CONTENT,
  },
  ServiceUnavailable: {
    description:
      'An unexpected server condition (details go to the log only), a request not answered within REQUEST_DEADLINE_MS (Retry-After: 1), or the service shutting down (Retry-After: 1)',
    headers: { 'Retry-After': RETRY_AFTER },
    content: ERROR_CONTENT,
  },
};

const DIGITS = { type: 'string', pattern: '^[0-9]+$' } as const;

/** Headers of successful answers, by where the hooks and guards add them. */
const SUCCESS_HEADERS = {
  /** Every answer (the request logging). */
  all: {
    'X-Request-Id': {
      description: "The request's id: the client's X-Request-Id when sane, else a new UUID",
      schema: { type: 'string' },
    },
  },
  /** A client's routes while its route class is limited (its quota, else RATE_LIMIT_*_PER_SECOND, not 0). */
  tenant: {
    'RateLimit-Limit': { description: 'Requests per window of the route class', schema: DIGITS },
    'RateLimit-Remaining': { description: 'Requests left in the window', schema: DIGITS },
    'RateLimit-Reset': { description: 'Seconds until the window ends', schema: DIGITS },
    'RateLimit-Policy': {
      description: 'The limit and its window: <limit>;w=1',
      schema: { type: 'string' },
    },
  },
  /** A 201 or 202 of a client's route (`@LocationHeader`). */
  created: {
    Location: {
      description: 'Where the created or accepted resource is, under the prefix the client used',
      schema: { type: 'string' },
    },
    Link: {
      description: 'A queued profile write: <.../Profile/{id}/Updates>; rel="monitor"',
      schema: { type: 'string' },
    },
  },
  /** A GET that takes If-None-Match (`@EntityTagged`). */
  tagged: {
    ETag: { description: 'The strong entity tag of the answer', schema: { type: 'string' } },
  },
};

const GLOBAL_PARAMETERS: Record<string, ParameterObject> = {
  IdempotencyKey: {
    name: 'Idempotency-Key',
    in: 'header',
    required: false,
    description:
      'Makes a retry safe: the first successful answer to a request with this key is kept (IDEMPOTENCY_TTL_SECONDS) and a replay with the same method, path and body gets it again (Idempotent-Replayed: true) with no second effect.',
    schema: { type: 'string', pattern: '^[\\x21-\\x7e]{1,255}$' },
  },
};

const WRITE_METHODS = new Set(['post', 'put', 'patch', 'delete']);
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/**
 * Builds the OpenAPI document of the api (after the global prefix is set): generated from
 * the routes and DTOs, completed with the global answers, and checked. Throws when a
 * route's path names a parameter the document does not declare, or a link names an
 * operation that does not exist.
 */
export function buildOpenApiDocument(
  app: INestApplication,
  /** A lifted app's own title (apps/decisions); the api's by default. */
  options: { title?: string } = {},
): OpenAPIObject {
  const builder = new DocumentBuilder()
    .setTitle(options.title ?? 'Preference, Consent and Profile service')
    .setDescription(
      'Multi-tenant profile, preference and consent store. Every /Profiles/v4 path is also served under the legacy prefix /Profiles/v2. ' +
        'Errors answer {"Message": "..."} (ErrorDto); 503 is an unexpected server condition (the service does not answer 500). ' +
        'Profile writes are queued: 202 with UpdateStatus "Pending Update", applied in acceptance order per profile. ' +
        'Writes under a client take an optional Idempotency-Key header. ' +
        EXAMPLE_CONFIGURATION,
    )
    .setVersion('4.0.1.4')
    .setLicense('Apache-2.0', 'https://www.apache.org/licenses/LICENSE-2.0')
    // Paths keep their prefix (/Profiles/v4/..., and /oauth2/v1/token outside it), so one
    // server serves them all: relative to where the document is read.
    .addServer(
      '/',
      'This service. Every /Profiles/v4 path is also served under the legacy /Profiles/v2.',
    )
    .addBearerAuth()
    .addApiKey(
      {
        type: 'apiKey',
        in: 'header',
        name: 'Authorization',
        description:
          'CUSTOMAUTH3-HMAC-SHA256 or CUSTOMAUTH3 signature of ClientId:UserId:Timestamp (docs/api.md, Method 2)',
      },
      'CUSTOMAUTH3',
    )
    .addBasicAuth(
      { type: 'http', description: 'Basic with the operator token as password (OPERATOR_TOKEN)' },
      'operatorBasic',
    );
  // The preference centre's signed links: each signed query parameter is an apiKey, and its
  // operations require their link's parameters together (libs/preference-centre).
  // The reporting page's link likewise (libs/reports).
  for (const [name, scheme] of Object.entries({
    ...CENTRE_LINK_SECURITY_SCHEMES,
    ...REPORT_PAGE_LINK_SECURITY_SCHEMES,
  })) {
    builder.addApiKey(
      { type: 'apiKey', in: 'query', name: scheme.parameter, description: scheme.description },
      name,
    );
  }
  const config = builder.build();
  const document = SwaggerModule.createDocument(app, config, { extraModels: [ErrorDto] });
  completeDocument(document);
  checkDocument(document);
  return document;
}

/** Every operation of the document with its path and method. */
function operationsOf(
  document: OpenAPIObject,
): { path: string; method: string; operation: OperationObject; item: PathItemObject }[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    METHODS.filter((method) => item[method]).map((method) => ({
      path,
      method,
      operation: item[method] as OperationObject,
      item,
    })),
  );
}

function pathParameterNames(path: string): string[] {
  return [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]);
}

function isReference(value: unknown): value is ReferenceObject {
  return typeof value === 'object' && value !== null && '$ref' in value;
}

/** Adds what every route answers because of a global hook, unless the route says it. */
function completeDocument(document: OpenAPIObject): void {
  document.components = {
    ...document.components,
    responses: { ...document.components?.responses, ...GLOBAL_RESPONSES },
    parameters: { ...document.components?.parameters, ...GLOBAL_PARAMETERS },
    headers: {
      ...document.components?.headers,
      ...SUCCESS_HEADERS.all,
      ...SUCCESS_HEADERS.tenant,
      ...SUCCESS_HEADERS.created,
      ...SUCCESS_HEADERS.tagged,
    },
  };
  for (const { path, method, operation } of operationsOf(document)) {
    const responses = operation.responses as Record<string, ResponseObject | ReferenceObject>;
    const answer = (status: string, name: keyof typeof GLOBAL_RESPONSES) => {
      responses[status] ??= { $ref: `#/components/responses/${name}` };
    };
    // A client's own routes; an operator route naming a client (its quotas) is not one.
    const operator = (operation.security ?? []).some((scheme) => 'operatorBasic' in scheme);
    const tenant = pathParameterNames(path).includes('clientId') && !operator;
    addStreamedBodies(operation);
    answer('400', 'BadRequest');
    if (tenant) answer('404', 'UnknownClient');
    if (operation.requestBody) {
      answer('413', 'PayloadTooLarge');
      answer('415', 'UnsupportedMediaType');
    }
    if (tenant && WRITE_METHODS.has(method)) {
      operation.parameters = [
        ...(operation.parameters ?? []),
        { $ref: '#/components/parameters/IdempotencyKey' },
      ];
      answer('409', 'IdempotencyKeyRunning');
      answer('422', 'IdempotencyKeyReused');
    }
    answer('429', 'TooManyRequests');
    answer('503', 'ServiceUnavailable');
    // Every error answers the filter's body.
    for (const [status, response] of Object.entries(responses)) {
      if (Number(status) >= 400 && !isReference(response) && !response.content) {
        response.content = ERROR_CONTENT;
      }
    }
    // Headers a success may carry (none required: the rate limit can be off, a replay or an
    // answer without a resource has no Location).
    const tagged = (operation.parameters ?? []).some(
      (parameter) => !isReference(parameter) && parameter.name === 'If-None-Match',
    );
    for (const [status, response] of Object.entries(responses)) {
      if (!/^2/.test(status) || isReference(response)) continue;
      const names = Object.keys({
        ...SUCCESS_HEADERS.all,
        ...(tenant ? SUCCESS_HEADERS.tenant : {}),
        ...(tenant && (status === '201' || status === '202') ? SUCCESS_HEADERS.created : {}),
        ...(tagged && status === '200' ? SUCCESS_HEADERS.tagged : {}),
      });
      response.headers = {
        ...Object.fromEntries(
          names.map((name) => [name, { $ref: `#/components/headers/${name}` }]),
        ),
        ...response.headers,
      };
    }
    operation.responses = sortByKey(responses);
    // Public operations (the token, the health probes) say so.
    operation.security ??= [];
    operation.parameters = sortParameters(path, operation.parameters ?? []);
  }
  splitRequestSchemas(document);
  closeRequestSchemas(document);
  nullableOptionalFields(document);
  document.tags = orderedTags(document);
}

/**
 * The media types a route takes as a stream besides JSON (`@AcceptsStream`), documented by
 * the route as an `x-streamed-body` extension (`ApiStreamedBody`): moved into its
 * requestBody's content.
 */
function addStreamedBodies(operation: OperationObject): void {
  const extended = operation as OperationObject & {
    [STREAMED_BODY]?: Record<string, MediaTypeObject>;
  };
  const streamed = extended[STREAMED_BODY];
  if (!streamed) return;
  delete extended[STREAMED_BODY];
  if (operation.requestBody && !isReference(operation.requestBody)) {
    operation.requestBody.content = { ...operation.requestBody.content, ...streamed };
  }
}

function sortByKey<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => a.localeCompare(b)));
}

/** Path parameters first, in the order of the path; then query, header and cookie ones. */
function sortParameters(
  path: string,
  parameters: (ParameterObject | ReferenceObject)[],
): (ParameterObject | ReferenceObject)[] {
  const inPath = pathParameterNames(path);
  const order = (parameter: ParameterObject | ReferenceObject): number => {
    if (isReference(parameter)) return 1000;
    if (parameter.in === 'path') return inPath.indexOf(parameter.name);
    return 100 * (['query', 'header', 'cookie'].indexOf(parameter.in) + 1);
  };
  return parameters
    .map((parameter, index) => ({ parameter, index }))
    .sort((a, b) => order(a.parameter) - order(b.parameter) || a.index - b.index)
    .map(({ parameter }) => parameter);
}

/** The declared tags first, in their order, then any other tag an operation names. */
function orderedTags(document: OpenAPIObject): TagObject[] {
  const used = new Set(operationsOf(document).flatMap(({ operation }) => operation.tags ?? []));
  const declared = OPENAPI_TAGS.filter((tag) => used.has(tag.name));
  const others = [...used]
    .filter((name) => !OPENAPI_TAGS.some((tag) => tag.name === name))
    .sort()
    .map((name) => ({ name }));
  return [...declared, ...others];
}

/**
 * The schemas a request body reaches, through `$ref`, array items, combinators and the
 * properties a client may send: not through read-only ones (accepted and ignored as a whole,
 * `ReadOnlyField`, or refused as a whole), whose schemas the request never gets to.
 */
function requestSchemas(
  schema: SchemaObject | ReferenceObject | undefined,
  schemas: Record<string, SchemaObject | ReferenceObject>,
  found: Set<string>,
): void {
  if (!schema) return;
  if (isReference(schema)) {
    const name = schema.$ref.replace('#/components/schemas/', '');
    if (found.has(name)) return;
    found.add(name);
    requestSchemas(schemas[name], schemas, found);
    return;
  }
  for (const part of [...(schema.allOf ?? []), ...(schema.anyOf ?? []), ...(schema.oneOf ?? [])]) {
    requestSchemas(part, schemas, found);
  }
  if (schema.items) requestSchemas(schema.items, schemas, found);
  if (typeof schema.additionalProperties === 'object') {
    requestSchemas(schema.additionalProperties, schemas, found);
  }
  for (const property of Object.values(schema.properties ?? {})) {
    if (!isReference(property) && property.readOnly) continue;
    requestSchemas(property, schemas, found);
  }
}

/** The named schemas JSON request bodies reach. */
function requestSchemaNames(document: OpenAPIObject): Set<string> {
  const schemas = document.components?.schemas ?? {};
  const reached = new Set<string>();
  for (const { operation } of operationsOf(document)) {
    const body = operation.requestBody;
    if (!body || isReference(body)) continue;
    for (const [mediaType, content] of Object.entries(body.content)) {
      if (/json/.test(mediaType)) requestSchemas(content.schema, schemas, reached);
    }
  }
  return reached;
}

/** `additionalProperties: false` on the schemas of JSON request bodies the server closes. */
function closeRequestSchemas(document: OpenAPIObject): void {
  const schemas = document.components?.schemas ?? {};
  const reached = requestSchemaNames(document);
  for (const name of reached) {
    const schema = schemas[name];
    if (OPEN_REQUEST_SCHEMAS.has(name) || !schema || isReference(schema)) continue;
    if (
      schema.type === 'object' &&
      schema.properties &&
      schema.additionalProperties === undefined
    ) {
      schema.additionalProperties = false;
    }
  }
}

type Schemas = Record<string, SchemaObject | ReferenceObject>;

/** Every `$ref` to a schema in `value`, recursively. */
function referencedSchemas(value: unknown, found: Set<string>): void {
  if (Array.isArray(value)) {
    for (const item of value) referencedSchemas(item, found);
  } else if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      if (key === '$ref' && typeof item === 'string' && item.startsWith('#/components/schemas/')) {
        found.add(item.slice('#/components/schemas/'.length));
      } else {
        referencedSchemas(item, found);
      }
    }
  }
}

/** A copy of `value` with its request-only keywords applied (or dropped) and refs renamed. */
function variant(value: unknown, request: boolean, rename: (name: string) => string): unknown {
  if (Array.isArray(value)) return value.map((item) => variant(item, request, rename));
  if (typeof value !== 'object' || value === null) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (key === REQUEST_ONLY) continue;
    if (key === '$ref' && typeof item === 'string' && item.startsWith('#/components/schemas/')) {
      copy[key] = `#/components/schemas/${rename(item.slice('#/components/schemas/'.length))}`;
    } else {
      copy[key] = variant(item, request, rename);
    }
  }
  const only = (value as Record<string, unknown>)[REQUEST_ONLY];
  if (request && typeof only === 'object' && only !== null) Object.assign(copy, only);
  return copy;
}

/**
 * Request bodies get their own variant (`<Name>Request`) of every schema whose properties
 * state request-only keywords ({@link REQUEST_ONLY}), or that reaches one: the request says
 * `minItems: 1` where the server refuses an empty list, while the answers that share the DTO
 * keep the schema without it (they may be empty). A schema only requests reach is not split.
 */
function splitRequestSchemas(document: OpenAPIObject): void {
  const schemas = (document.components?.schemas ?? {}) as Schemas;
  const bodies = operationsOf(document).flatMap(({ operation }) => {
    const body = operation.requestBody;
    if (!body || isReference(body)) return [];
    return Object.entries(body.content)
      .filter(([mediaType]) => /json/.test(mediaType))
      .map(([, content]) => content);
  });
  const reached = new Set<string>();
  for (const content of bodies) requestSchemas(content.schema, schemas, reached);
  // The reached schemas that state request-only keywords or refer to one that does.
  const split = new Set<string>(
    [...reached].filter((name) => JSON.stringify(schemas[name]).includes(`"${REQUEST_ONLY}"`)),
  );
  for (let grown = true; grown;) {
    grown = false;
    for (const name of reached) {
      if (split.has(name)) continue;
      const refs = new Set<string>();
      referencedSchemas(schemas[name], refs);
      if ([...refs].some((ref) => split.has(ref))) {
        split.add(name);
        grown = true;
      }
    }
  }
  const rename = (name: string) => (split.has(name) ? `${name}Request` : name);
  for (const name of split) {
    schemas[`${name}Request`] = variant(schemas[name], true, rename) as SchemaObject;
  }
  for (const content of bodies) {
    if (content.schema) content.schema = variant(content.schema, true, rename) as SchemaObject;
  }
  for (const name of Object.keys(schemas)) {
    schemas[name] = variant(schemas[name], false, (same) => same) as SchemaObject;
  }
  // A split schema nothing but requests referred to is now referred to by nothing.
  const used = new Set<string>();
  referencedSchemas({ ...document, components: { ...document.components, schemas: {} } }, used);
  for (let grown = true; grown;) {
    grown = false;
    for (const name of [...used]) {
      const before = used.size;
      referencedSchemas(schemas[name], used);
      if (used.size !== before) grown = true;
    }
  }
  for (const name of split) {
    if (!used.has(name)) delete schemas[name];
  }
}

/**
 * `nullable: true` on the optional fields of request bodies: the validation takes null as
 * absent for every optional field (class-validator's IsOptional), so a client may send it.
 * An enum lists null too; a field that is a `$ref` becomes `allOf: [$ref]` beside it.
 */
function nullableOptionalFields(document: OpenAPIObject): void {
  const schemas = document.components?.schemas ?? {};
  const reached = requestSchemaNames(document);
  for (const name of reached) {
    const schema = schemas[name];
    if (!schema || isReference(schema) || schema.type !== 'object' || !schema.properties) continue;
    const required = new Set(schema.required ?? []);
    for (const [field, property] of Object.entries(schema.properties)) {
      if (required.has(field)) continue;
      if (isReference(property)) {
        const target = schemas[property.$ref.replace('#/components/schemas/', '')];
        const type = target && !isReference(target) ? target.type : undefined;
        if (type) schema.properties[field] = { type, allOf: [property], nullable: true };
        continue;
      }
      if (property.readOnly) continue;
      if (!property.type || property.nullable !== undefined) continue;
      property.nullable = true;
      if (property.enum && !property.enum.includes(null)) property.enum = [...property.enum, null];
    }
  }
}

/**
 * What generators and fuzzers rely on, checked on every build (a route added without it
 * fails the api's start, so the test suite, rather than the first client):
 * - every `{name}` of a path is a declared path parameter, and every path parameter is in
 *   the path;
 * - every parameter has a typed schema;
 * - every link names an existing operation.
 */
function checkDocument(document: OpenAPIObject): void {
  const problems: string[] = [];
  const operationIds = new Set(
    operationsOf(document).map(({ operation }) => operation.operationId),
  );
  for (const { path, method, operation, item } of operationsOf(document)) {
    const where = `${method.toUpperCase()} ${path}`;
    const parameters = [...(item.parameters ?? []), ...(operation.parameters ?? [])].filter(
      (parameter): parameter is ParameterObject => !isReference(parameter),
    );
    const inPath = pathParameterNames(path);
    const declared = parameters.filter((parameter) => parameter.in === 'path');
    for (const name of inPath) {
      if (!declared.some((parameter) => parameter.name === name)) {
        problems.push(`${where}: the path parameter {${name}} is not declared (@ApiParam)`);
      }
    }
    for (const parameter of declared) {
      if (!inPath.includes(parameter.name)) {
        problems.push(`${where}: the path parameter ${parameter.name} is not in the path`);
      }
    }
    for (const parameter of parameters) {
      const schema = parameter.schema;
      if (!schema || (!isReference(schema) && !schema.type)) {
        problems.push(`${where}: the ${parameter.in} parameter ${parameter.name} has no type`);
      }
    }
    for (const [status, response] of Object.entries(operation.responses)) {
      if (!response || isReference(response)) continue;
      for (const [name, link] of Object.entries(response.links ?? {})) {
        if (!isReference(link) && link.operationId && !operationIds.has(link.operationId)) {
          problems.push(
            `${where} ${status}: the link ${name} names the operation ${link.operationId}, which does not exist`,
          );
        }
      }
    }
  }
  if (problems.length) {
    throw new Error(`The OpenAPI document is incomplete:\n- ${problems.join('\n- ')}`);
  }
}
