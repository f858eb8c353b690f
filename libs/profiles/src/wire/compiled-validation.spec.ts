import 'reflect-metadata';
import { plainToInstance } from 'class-transformer';
import { getMetadataStorage, validateSync } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';
import { compiledValidation } from '@app/shared';
import { fullProfileBody } from '../../../../test/harness/profile-fixtures';
// Every DTO class of the api (its modules define them): the fields test covers them all.
import '../../../../apps/api/src/api.module';
import { ProfileDto } from './profile.dto';
import { validateProfileBody } from './validate-profile-body';

/** The global pipe's options (Nest's ValidationPipe sets forbidUnknownValues false). */
const OPTIONS = {
  forbidUnknownValues: false,
  whitelist: true,
  forbidNonWhitelisted: true,
  validationError: { target: false, value: true },
};

/** Values put in every place of a valid body, one at a time (undefined: the field removed). */
const ODD_VALUES: unknown[] = [
  undefined,
  null,
  '',
  0,
  2 ** 31,
  true,
  'x'.repeat(101),
  'x'.repeat(4001),
  '\u{1F600}'.repeat(60),
  'a\uFE0F'.repeat(60),
  [],
  [{}],
  [['nested']],
  {},
  '2026-11-01T10:00:00.000Z',
  'not-an-email',
  'jane@example.com',
];

type Json = Record<string, unknown> | unknown[];

/** Every path to a value of `body` (object keys and array indexes). */
function paths(value: unknown, at: (string | number)[] = []): (string | number)[][] {
  if (value === null || typeof value !== 'object') return [at];
  const keys = Array.isArray(value) ? value.map((_, i) => i) : Object.keys(value);
  return [
    at,
    ...keys.flatMap((key) => paths((value as Record<string, unknown>)[key], [...at, key])),
  ];
}

function withValue(body: Json, path: (string | number)[], value: unknown): Json {
  const copy = structuredClone(body) as Record<string | number, unknown>;
  let parent = copy;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  const last = path[path.length - 1];
  if (value === undefined && !Array.isArray(parent)) delete parent[last];
  else parent[last] = structuredClone(value);
  return copy;
}

/** Bodies around `base`: each place given each odd value, and an unknown field in each object. */
function variants(base: Json): Json[] {
  const out: Json[] = [base];
  for (const path of paths(base)) {
    if (!path.length) continue;
    for (const value of ODD_VALUES) out.push(withValue(base, path, value));
  }
  for (const path of paths(base)) {
    const target = path.reduce<unknown>((v, k) => (v as Record<string | number, unknown>)[k], base);
    if (target && typeof target === 'object' && !Array.isArray(target)) {
      out.push(withValue(base, [...path, 'Unknown'], 'x'));
    }
  }
  return out;
}

describe('compiled validation (the pre-check of the DTO rules)', () => {
  /** With the pipe's options, and with forbidUnknownValues true (validateSync's default). */
  const BOTH = [OPTIONS, { ...OPTIONS, forbidUnknownValues: true }];
  const check = (type: new () => object, bodies: Json[], modes = [OPTIONS]) => {
    let accepted = 0;
    let valid = 0;
    for (const options of modes) {
      for (const body of bodies) {
        // One instance for both, as the global pipe does (neither changes it with these
        // options): the transform was half this test's time when made twice.
        const instance = plainToInstance(type, body);
        const fast = compiledValidation().accepts(instance, options);
        const errors = validateSync(instance, options);
        // Never laxer than class-validator: what it accepts has no error.
        if (fast) expect({ body, options, errors }).toEqual({ body, options, errors: [] });
        if (fast) accepted++;
        if (!errors.length) valid++;
      }
    }
    return { accepted, valid };
  };

  it('accepts only bodies class-validator finds valid (ProfileDto, every place, odd values)', () => {
    const { accepted, valid } = check(ProfileDto, [
      ...variants(fullProfileBody('C-1')),
      ...variants({ CustomFields: [{ Name: 'Tier', Value: 'gold' }] }),
    ]);
    // And it takes most of the valid ones (the point of it).
    expect(valid).toBeGreaterThan(100);
    expect(accepted).toBeGreaterThan(valid * 0.8);
  });

  it('accepts only bodies class-validator finds valid (every DTO class loaded, each field odd)', () => {
    const storage = getMetadataStorage() as unknown as {
      validationMetadatas: Map<new () => object, ValidationMetadata[]>;
    };
    for (const [type, metadatas] of storage.validationMetadatas) {
      const fields = [...new Set(metadatas.map((m) => m.propertyName))];
      check(
        type,
        [
          {},
          ...fields.flatMap((field) =>
            ODD_VALUES.map((value) => (value === undefined ? {} : { [field]: value })),
          ),
        ],
        BOTH,
      );
    }
  });

  it('takes the usual bodies: a full profile, a merge, an empty body', () => {
    for (const body of [fullProfileBody('C-2'), { CustomFields: [{ Name: 'Tier' }] }, {}]) {
      expect(compiledValidation().accepts(plainToInstance(ProfileDto, body), OPTIONS)).toBe(true);
    }
  });

  it('leaves refusals and their messages to class-validator', () => {
    const body = { CustomFields: [{ Name: '', Value: 'x'.repeat(4001) }], Unknown: 1 };
    expect(compiledValidation().accepts(plainToInstance(ProfileDto, body), OPTIONS)).toBe(false);
    expect(validateProfileBody(body)).toEqual([
      'Unknown field Unknown',
      'Invalid CustomFields[0].Name (value ""): Name should not be empty',
      `Invalid CustomFields[0].Value (value "${'x'.repeat(76)}...): Value must be shorter than or equal to 4000 characters`,
    ]);
  });

  it('is not used for other options (groups, no whitelist)', () => {
    const instance = plainToInstance(ProfileDto, {});
    expect(compiledValidation().accepts(instance, { whitelist: false })).toBe(false);
    expect(compiledValidation().accepts(instance, { ...OPTIONS, groups: ['a'] })).toBe(false);
  });
});
