import {
  consentRule,
  CUSTOMER_NAME_FIELDS,
  ElementRule,
  PROFILE_COLLECTIONS,
  PROFILE_FIELDS,
  preferenceRule,
} from './element-rules';
import type { Edited, ProfileData } from './profile-data.schema';
import {
  type BodyOf,
  deleteField,
  type ElementBody,
  elementsOf,
  fieldOf,
  listOf,
  type ProfileBody,
  setField,
} from './profile-shape';

/** Who changes the profile, and when (the acceptance time of the write). */
export interface WriteContext {
  at: string;
  userId: string;
  /**
   * The write's consents may carry their Confirmation (double opt-in evidence), which the
   * consent rules then keep: a merge's absorbed profile (evidence it stored) or a bulk
   * import's record (a confirmation made elsewhere, checked when the record was accepted).
   * Never for a Data API write: there Confirmation is read-only.
   */
  confirmationsCarried?: boolean;
}

export type WriteMode = 'merge' | 'overwrite';

/**
 * The profile data after a create, merge (POST: only what the body names changes) or
 * overwrite (PUT: what the body omits is removed). Pure: the worker calls it with the
 * stored data and a request body already validated by the DTOs.
 */
export function applyProfileWrite(
  current: ProfileData | undefined,
  input: ProfileBody,
  mode: WriteMode,
  ctx: WriteContext,
  /** Collections a merge replaces whole, as an overwrite would (a bulk import's Refresh*). */
  replace: readonly string[] = [],
): ProfileData {
  const result: ProfileBody = current && mode === 'merge' ? structuredClone(current) : {};

  for (const field of PROFILE_FIELDS) {
    if (mode === 'overwrite') delete result[field];
    assignIfPresent(result, input, field);
  }
  result.IsActive ??= true;
  result.PreserveConsents ??= true;
  result.PreservePreferences ??= true;

  const name = input.CustomerName;
  if (mode === 'overwrite' || name === null) delete result.CustomerName;
  if (name) {
    const merged = { ...(result.CustomerName ?? {}) };
    for (const field of CUSTOMER_NAME_FIELDS) assignIfPresent(merged, name, field);
    result.CustomerName = merged;
  }

  for (const [collection, rule] of Object.entries(PROFILE_COLLECTIONS)) {
    const stored = listOf(fieldOf(current, collection)) ?? [];
    const collectionMode = replace.includes(collection) ? 'overwrite' : mode;
    setField(
      result,
      collection,
      applyCollection(stored, fieldOf(input, collection), rule, collectionMode, ctx),
    );
  }

  const createdBefore = current?.Edited;
  result.Edited = stampEdited(createdBefore, ctx);
  // Every field of ProfileData is set above: the standard fields' defaults, each collection
  // (its elements built by their rules) and Edited.
  return result as ProfileData;
}

function applyCollection(
  stored: readonly ElementBody[],
  incoming: unknown,
  rule: ElementRule,
  mode: WriteMode,
  ctx: WriteContext,
): ElementBody[] {
  const requested = listOf(incoming);
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
  existing: ElementBody | undefined,
  input: ElementBody,
  rule: ElementRule,
  mode: WriteMode,
  ctx: WriteContext,
): ElementBody {
  const element: ElementBody = {};
  if (existing && mode === 'merge') Object.assign(element, structuredClone(existing));
  for (const field of rule.fields) assignIfPresent(element, input, field);
  // Read-only for a writer: only a write that may carry it (WriteContext) brings one.
  if (rule === consentRule && ctx.confirmationsCarried)
    assignIfPresent(element, input, 'Confirmation');
  if (rule.activatable) setField(element, 'IsActive', fieldOf(element, 'IsActive') ?? true);
  for (const [collection, nestedRule] of Object.entries(rule.nested)) {
    const storedNested = listOf(fieldOf(existing, collection)) ?? [];
    setField(
      element,
      collection,
      applyCollection(storedNested, fieldOf(input, collection), nestedRule, mode, ctx),
    );
  }
  if (rule === preferenceRule && fieldOf(element, 'IsActive') === false) {
    // A preference is not activatable from the wire: naming an archived (or deactivated)
    // one again in a write brings it back, without the reason it was archived for.
    setField(element, 'IsActive', true);
    setField(
      element,
      'PreferenceAttributes',
      (listOf(fieldOf(element, 'PreferenceAttributes')) ?? []).filter(
        (attribute) => fieldOf(attribute, 'Key') !== '$Reason_Code',
      ),
    );
  }
  rule.derive?.(element);
  if (rule.stamp === 'edited')
    setField(
      element,
      'Edited',
      stampEdited(existing && 'Edited' in existing ? existing.Edited : undefined, ctx),
    );
  if (rule.stamp === 'lastModified') setField(element, 'LastModifiedDate', ctx.at);
  return element;
}

function findByKey(
  stored: readonly ElementBody[],
  rule: ElementRule,
  element: ElementBody,
): ElementBody | undefined {
  const key = rule.key(element);
  return stored.find((candidate) => rule.key(candidate) === key);
}

/** A field present in the request is taken; null clears it; absent leaves it. */
function assignIfPresent(target: object, source: object, field: string): void {
  const value = fieldOf(source, field);
  if (!(field in source) || value === undefined) return;
  if (value === null) deleteField(target, field);
  else setField(target, field, structuredClone(value));
}

/** The Edited stamp of what a write changes: created as before (or now), modified now. */
export function stampEdited(
  previous: BodyOf<Edited> | null | undefined,
  ctx: Pick<WriteContext, 'at' | 'userId'>,
): Edited {
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
export function findRepeatedElement(input: ProfileBody, path = ''): string | null {
  return findRepeatedIn(input, PROFILE_COLLECTIONS, path);
}

function findRepeatedIn(
  container: object,
  collections: Record<string, ElementRule>,
  path: string,
): string | null {
  for (const [collection, rule] of Object.entries(collections)) {
    const elements = listOf(fieldOf(container, collection));
    if (!elements) continue;
    const seen = new Map<string, number>();
    for (const [index, element] of elements.entries()) {
      const here = `${path}${collection}[${index}]`;
      const key = rule.key(element);
      const first = seen.get(key);
      if (first !== undefined) {
        const values = rule.keyFields
          .map((field) => JSON.stringify(fieldOf(element, field) ?? null))
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
export function deactivateUnrestated<E extends ElementBody>(
  after: ProfileData,
  input: ProfileBody,
  containers: { profile?: string; contact: (collection: ContactCollection) => string },
  key: (element: E) => string,
  stamp: (element: E) => void,
  hidden: (collection: string, element: E) => boolean,
): ProfileData {
  const data = structuredClone(after);
  const deactivate = (list: unknown, container: string, restated: E[]) => {
    const named = new Set(restated.map(key));
    for (const element of elementsOf<E>(list)) {
      if (
        fieldOf(element, 'IsActive') === false ||
        named.has(key(element)) ||
        hidden(container, element)
      )
        continue;
      setField(element, 'IsActive', false);
      stamp(element);
    }
  };
  if (containers.profile) {
    deactivate(
      fieldOf(data, containers.profile),
      containers.profile,
      elementsOf<E>(fieldOf(input, containers.profile)),
    );
  }
  for (const collection of CONTACT_COLLECTIONS) {
    const rule = PROFILE_COLLECTIONS[collection];
    const container = containers.contact(collection);
    const given = elementsOf(input[collection]);
    for (const element of elementsOf(data[collection])) {
      const restated = given.find((candidate) => rule.key(candidate) === rule.key(element));
      deactivate(
        fieldOf(element, container),
        container,
        elementsOf<E>(fieldOf(restated, container)),
      );
    }
  }
  return data;
}
