import {
  CUSTOMER_NAME_FIELDS,
  ElementRule,
  PROFILE_COLLECTIONS,
  PROFILE_FIELDS,
  preferenceRule,
} from './element-rules';
import type { Edited, ProfileData } from './profile-data.schema';

type Element = Record<string, unknown>;

/** Who changes the profile, and when (the acceptance time of the write). */
export interface WriteContext {
  at: string;
  userId: string;
}

export type WriteMode = 'merge' | 'overwrite';

/**
 * The profile data after a create, merge (POST: only what the body names changes) or
 * overwrite (PUT: what the body omits is removed). Pure: the worker calls it with the
 * stored data and a request body already validated by the DTOs.
 */
export function applyProfileWrite(
  current: ProfileData | undefined,
  input: Element,
  mode: WriteMode,
  ctx: WriteContext,
  /** Collections a merge replaces whole, as an overwrite would (a bulk import's Refresh*). */
  replace: readonly string[] = [],
): ProfileData {
  const result: Element =
    current && mode === 'merge' ? (structuredClone(current) as unknown as Element) : {};

  for (const field of PROFILE_FIELDS) {
    if (mode === 'overwrite') delete result[field];
    assignIfPresent(result, input, field);
  }
  result.IsActive ??= true;
  result.PreserveConsents ??= true;
  result.PreservePreferences ??= true;

  const name = input.CustomerName as Element | null | undefined;
  if (mode === 'overwrite' || name === null) delete result.CustomerName;
  if (name) {
    const merged: Element = { ...((result.CustomerName as Element | undefined) ?? {}) };
    for (const field of CUSTOMER_NAME_FIELDS) assignIfPresent(merged, name, field);
    result.CustomerName = merged;
  }

  for (const [collection, rule] of Object.entries(PROFILE_COLLECTIONS)) {
    const stored = ((current as unknown as Element | undefined)?.[collection] as Element[]) ?? [];
    const collectionMode = replace.includes(collection) ? 'overwrite' : mode;
    result[collection] = applyCollection(stored, input[collection], rule, collectionMode, ctx);
  }

  const createdBefore = current?.Edited;
  result.Edited = stamp(createdBefore, ctx);
  return result as unknown as ProfileData;
}

function applyCollection(
  stored: Element[],
  incoming: unknown,
  rule: ElementRule,
  mode: WriteMode,
  ctx: WriteContext,
): Element[] {
  const requested = Array.isArray(incoming) ? (incoming as Element[]) : null;
  if (mode === 'overwrite') {
    return (requested ?? []).map((element) =>
      applyElement(findByKey(stored, rule, element), element, rule, mode, ctx),
    );
  }
  const result = stored.map((element) => structuredClone(element));
  for (const element of requested ?? []) {
    const index = result.findIndex((candidate) => rule.key(candidate) === rule.key(element));
    if (index >= 0) result[index] = applyElement(result[index], element, rule, mode, ctx);
    else result.push(applyElement(undefined, element, rule, mode, ctx));
  }
  return result;
}

function applyElement(
  existing: Element | undefined,
  input: Element,
  rule: ElementRule,
  mode: WriteMode,
  ctx: WriteContext,
): Element {
  const element: Element = {};
  if (existing && mode === 'merge') Object.assign(element, structuredClone(existing));
  for (const field of rule.fields) assignIfPresent(element, input, field);
  if (rule.activatable) element.IsActive ??= true;
  for (const [collection, nestedRule] of Object.entries(rule.nested)) {
    const storedNested = (existing?.[collection] as Element[] | undefined) ?? [];
    element[collection] = applyCollection(storedNested, input[collection], nestedRule, mode, ctx);
  }
  if (rule === preferenceRule && element.IsActive === false) {
    // A preference is not activatable from the wire: naming an archived (or deactivated)
    // one again in a write brings it back, without the reason it was archived for.
    element.IsActive = true;
    element.PreferenceAttributes = (
      (element.PreferenceAttributes as Element[] | undefined) ?? []
    ).filter((attribute) => attribute.Key !== '$Reason_Code');
  }
  rule.derive?.(element);
  if (rule.stamp === 'edited') element.Edited = stamp(existing?.Edited as Edited | undefined, ctx);
  if (rule.stamp === 'lastModified') element.LastModifiedDate = ctx.at;
  return element;
}

function findByKey(stored: Element[], rule: ElementRule, element: Element): Element | undefined {
  const key = rule.key(element);
  return stored.find((candidate) => rule.key(candidate) === key);
}

/** A field present in the request is taken; null clears it; absent leaves it. */
function assignIfPresent(target: Element, source: Element, field: string): void {
  if (!(field in source) || source[field] === undefined) return;
  if (source[field] === null) delete target[field];
  else target[field] = structuredClone(source[field]);
}

function stamp(previous: Edited | undefined, ctx: WriteContext): Edited {
  return {
    CreateDate: previous?.CreateDate ?? ctx.at,
    CreatedBy: previous?.CreatedBy ?? ctx.userId,
    ModifiedDate: ctx.at,
    ModifiedBy: ctx.userId,
  };
}

/**
 * Elements of one request that name the same element twice (same key within one
 * collection): refused with 400 rather than guessed at. Returns a message or null.
 */
export function findRepeatedElement(input: Element, path = ''): string | null {
  return findRepeatedIn(input, PROFILE_COLLECTIONS, path);
}

function findRepeatedIn(
  container: Element,
  collections: Record<string, ElementRule>,
  path: string,
): string | null {
  for (const [collection, rule] of Object.entries(collections)) {
    const elements = container[collection];
    if (!Array.isArray(elements)) continue;
    const seen = new Map<string, number>();
    for (const [index, element] of (elements as Element[]).entries()) {
      const here = `${path}${collection}[${index}]`;
      const key = rule.key(element);
      const first = seen.get(key);
      if (first !== undefined) {
        const values = rule.keyFields
          .map((field) => JSON.stringify(element[field] ?? null))
          .join(', ');
        return `${here} repeats ${path}${collection}[${first}] (same ${rule.keyFields.join(' + ')}: ${values})`;
      }
      seen.set(key, index);
      const nested = findRepeatedIn(element, rule.nested, `${here}.`);
      if (nested) return nested;
    }
  }
  return null;
}

const CONTACT_COLLECTIONS = ['Emails', 'PhoneNumbers', 'Addresses'] as const;
type ContactCollection = (typeof CONTACT_COLLECTIONS)[number];

/**
 * A merge that drops what it does not restate (PreservePreferences or PreserveConsents
 * false): every active element of the named containers, on the profile (`profile`) and on
 * each contact element (`contact`), that the body does not restate (compared by `key`) is
 * deactivated and stamped; elements `hidden` from the writer (outside their user group's
 * scope) are left alone. `after` is the merged data, `input` the body; returns a copy.
 */
export function deactivateUnrestated(
  after: ProfileData,
  input: Element,
  containers: { profile?: string; contact: (collection: ContactCollection) => string },
  key: (element: Element) => string,
  stamp: (element: Element) => void,
  hidden: (collection: string, element: Element) => boolean,
): ProfileData {
  const data = structuredClone(after) as unknown as Element;
  const deactivate = (list: unknown, container: string, restated: Element[]) => {
    const named = new Set(restated.map(key));
    for (const element of elements(list)) {
      if (element.IsActive === false || named.has(key(element)) || hidden(container, element))
        continue;
      element.IsActive = false;
      stamp(element);
    }
  };
  if (containers.profile) {
    deactivate(data[containers.profile], containers.profile, elements(input[containers.profile]));
  }
  for (const collection of CONTACT_COLLECTIONS) {
    const rule = PROFILE_COLLECTIONS[collection];
    const container = containers.contact(collection);
    const given = elements(input[collection]);
    for (const element of elements(data[collection])) {
      const restated = given.find((candidate) => rule.key(candidate) === rule.key(element));
      deactivate(element[container], container, elements(restated?.[container]));
    }
  }
  return data as unknown as ProfileData;
}

function elements(value: unknown): Element[] {
  return Array.isArray(value) ? (value.filter((v) => v && typeof v === 'object') as Element[]) : [];
}
