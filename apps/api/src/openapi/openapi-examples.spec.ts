import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

/*
 * The examples of the committed OpenAPI document (openapi.json, kept equal to the served one
 * by test/openapi-document.e2e-spec.ts) are valid against their schemas: every request body
 * has one, and each example (of a media type, a schema or property, a parameter) passes its
 * schema with a JSON-Schema validator (ajv, OpenAPI 3.0's `nullable` included). That the
 * service accepts the request-body examples is test/openapi-examples.e2e-spec.ts.
 */

/** The parts of an OpenAPI 3.0 document this test reads. */
interface Schema {
  $ref?: string;
  example?: unknown;
  description?: string;
  enum?: unknown[];
  [keyword: string]: unknown;
}
interface MediaType {
  schema?: Schema;
  example?: unknown;
  examples?: Record<string, { summary?: string; value?: unknown; $ref?: string }>;
}
interface Parameter {
  name: string;
  in: string;
  description?: string;
  schema?: Schema;
  example?: unknown;
  $ref?: string;
}
interface Operation {
  operationId: string;
  parameters?: Parameter[];
  requestBody?: { content: Record<string, MediaType> };
  responses: Record<string, { content?: Record<string, MediaType>; $ref?: string }>;
}
interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];
const DOCUMENT_ID = 'openapi.json';

const document = JSON.parse(
  readFileSync(join(__dirname, '..', '..', '..', '..', 'openapi.json'), 'utf8'),
) as OpenApiDocument;

function operations(): { where: string; operation: Operation }[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    METHODS.filter((method) => item[method]).map((method) => ({
      where: `${method.toUpperCase()} ${path}`,
      operation: item[method],
    })),
  );
}

/** One example and the schema it must pass. */
interface ExampleCase {
  where: string;
  schema: Schema;
  value: unknown;
}

/** The examples of a media type: its `examples`, its `example`, else its schema's `example`. */
function mediaTypeExamples(where: string, media: MediaType): ExampleCase[] {
  if (!media.schema) return [];
  const schema = media.schema;
  const named = Object.entries(media.examples ?? {}).map(([name, example]) => ({
    where: `${where} example "${name}"`,
    schema,
    value: example.value,
  }));
  const single =
    media.example !== undefined
      ? [{ where: `${where} example`, schema, value: media.example }]
      : [];
  return [...named, ...single];
}

/** Every schema or property of the document's schemas that carries an `example`. */
function schemaExamples(): ExampleCase[] {
  const found: ExampleCase[] = [];
  const walk = (where: string, node: unknown): void => {
    if (Array.isArray(node)) {
      node.forEach((item, index) => walk(`${where}[${index}]`, item));
      return;
    }
    if (typeof node !== 'object' || node === null) return;
    const schema = node as Schema;
    if (schema.example !== undefined) found.push({ where, schema, value: schema.example });
    for (const [key, value] of Object.entries(schema)) {
      if (key === 'example') continue;
      if (key === 'properties' && typeof value === 'object' && value !== null) {
        for (const [name, property] of Object.entries(value)) walk(`${where}.${name}`, property);
      } else {
        walk(`${where}/${key}`, value);
      }
    }
  };
  for (const [name, schema] of Object.entries(document.components.schemas)) walk(name, schema);
  return found;
}

function allExamples(): ExampleCase[] {
  return operations().flatMap(({ where, operation }) => [
    ...Object.entries(operation.requestBody?.content ?? {}).flatMap(([type, media]) =>
      mediaTypeExamples(`${where} request ${type}`, media),
    ),
    ...Object.entries(operation.responses).flatMap(([status, response]) =>
      Object.entries(response.content ?? {}).flatMap(([type, media]) =>
        mediaTypeExamples(`${where} ${status} ${type}`, media),
      ),
    ),
    ...(operation.parameters ?? []).flatMap((parameter) => {
      const schema = parameter.schema;
      const example = parameter.example ?? schema?.example;
      if (!schema || example === undefined) return [];
      return [
        { where: `${where} ${parameter.in} parameter ${parameter.name}`, schema, value: example },
      ];
    }),
  ]);
}

/**
 * Validators of `schemas`, in order: ajv with OpenAPI 3.0's keywords (`nullable` is ajv's
 * own; the annotations `example`, `discriminator`, `xml`, `externalDocs` are known and
 * ignored) and the formats the document uses. The schemas are compiled inside a copy of the
 * document, so their `#/components/schemas/...` references resolve.
 */
function validatorsOf(schemas: Schema[]): ValidateFunction[] {
  const ajv = new Ajv({ allErrors: true, strict: false });
  addFormats(ajv);
  for (const format of ['int32', 'int64']) {
    ajv.addFormat(format, { type: 'number', validate: (value) => Number.isInteger(value) });
  }
  for (const format of ['float', 'double']) {
    ajv.addFormat(format, { type: 'number', validate: () => true });
  }
  ajv.addVocabulary(['example', 'discriminator', 'xml', 'externalDocs']);
  const names = schemas.map((_, index) => `x-example-case-${index}`);
  const holder = {
    $id: DOCUMENT_ID,
    components: {
      schemas: {
        ...document.components.schemas,
        ...Object.fromEntries(names.map((name, index) => [name, schemas[index]])),
      },
    },
  };
  ajv.addSchema(holder);
  return names.map((name) => {
    const validate = ajv.getSchema(`${DOCUMENT_ID}#/components/schemas/${name}`);
    if (!validate) throw new Error(`no validator for ${name}`);
    return validate;
  });
}

/**
 * Every code list of the document (an `enum` of two values or more, of a schema, a property,
 * array items or a parameter) and the description that must give the codes' meanings: the
 * node's own, or for array items the array's, or for a parameter the parameter's.
 */
function codeLists(): { where: string; codes: unknown[]; description: string }[] {
  const found: { where: string; codes: unknown[]; description: string }[] = [];
  const walk = (where: string, node: unknown, outer: string): void => {
    if (Array.isArray(node)) {
      node.forEach((item, index) => walk(`${where}[${index}]`, item, outer));
      return;
    }
    if (typeof node !== 'object' || node === null) return;
    const schema = node as Schema;
    const description = [schema.description, outer].filter(Boolean).join(' ');
    const codes = Array.isArray(schema.enum) ? schema.enum.filter((code) => code !== null) : [];
    if (codes.length >= 2) found.push({ where, codes, description });
    for (const [key, value] of Object.entries(schema)) {
      if (key === 'enum' || key === 'example') continue;
      if (key === 'properties' && typeof value === 'object' && value !== null) {
        for (const [name, property] of Object.entries(value))
          walk(`${where}.${name}`, property, '');
      } else {
        walk(`${where}/${key}`, value, key === 'items' ? description : '');
      }
    }
  };
  for (const [name, schema] of Object.entries(document.components.schemas)) walk(name, schema, '');
  for (const { where, operation } of operations()) {
    for (const parameter of operation.parameters ?? []) {
      walk(`${where} ${parameter.name}`, parameter.schema, parameter.description ?? '');
    }
  }
  return found;
}

/**
 * Whether `description` names `code`: the code itself, or a family it belongs to
 * (`profile.*` names every `profile.` event type).
 */
function names(description: string, code: unknown): boolean {
  const text = String(code);
  if (description.includes(text)) return true;
  const family = /^([a-z]+)\./.exec(text);
  return family !== null && description.includes(`${family[1]}.*`);
}

describe('the code lists of the OpenAPI document', () => {
  it('say what each code means in their description', () => {
    const lists = codeLists();
    const unexplained = lists
      .map(({ where, codes, description }) => ({
        where,
        missing: codes.filter((code) => !names(description, code)),
      }))
      .filter(({ missing }) => missing.length)
      .map(({ where, missing }) => `${where}: ${missing.join(', ')}`);
    expect(unexplained).toEqual([]);
    // Not vacuous: the consent statuses and preference types are among the lists checked.
    expect(lists.map(({ where }) => where)).toEqual(
      expect.arrayContaining(['ConsentDto.ConsentStatus', 'PreferenceDto.PreferenceType']),
    );
  });
});

describe('the examples of the OpenAPI document', () => {
  it('give every request body an example', () => {
    const without = operations().flatMap(({ where, operation }) =>
      Object.entries(operation.requestBody?.content ?? {})
        .filter(
          ([, media]) =>
            media.example === undefined &&
            !Object.keys(media.examples ?? {}).length &&
            media.schema?.example === undefined,
        )
        .map(([type]) => `${where} ${type}`),
    );
    expect(without).toEqual([]);
  });

  it('give every request-body example a summary saying what it shows', () => {
    const unsummarised = operations().flatMap(({ where, operation }) =>
      Object.values(operation.requestBody?.content ?? {}).flatMap((media) =>
        Object.entries(media.examples ?? {})
          .filter(([, example]) => !example.summary?.trim())
          .map(([name]) => `${where} ${name}`),
      ),
    );
    expect(unsummarised).toEqual([]);
  });

  it('are valid against their schemas', () => {
    const cases = [...allExamples(), ...schemaExamples()];
    const validators = validatorsOf(cases.map((example) => example.schema));
    const invalid = cases.flatMap((example, index) =>
      validators[index](example.value)
        ? []
        : [`${example.where}: ${JSON.stringify(validators[index].errors?.slice(0, 3))}`],
    );
    expect(invalid).toEqual([]);
    // Not vacuous: the request bodies' examples are among them.
    expect(cases.filter((example) => / request /.test(example.where)).length).toBeGreaterThan(60);
  });
});
