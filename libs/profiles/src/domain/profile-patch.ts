import type { CheckedPatchOperation } from '@app/shared';
import { PROFILE_COLLECTIONS, type ElementRule } from './element-rules';
import { type ElementBody, fieldOf, listOf, setField } from './profile-shape';
import type { ProfileData } from './profile-data.schema';

/** One JSON Patch operation as stored with a queued `patch` write (checked by the PATCH pipe). */
export type ProfilePatchOperation = CheckedPatchOperation;

/**
 * Spec rule 4: in a request with both replace and remove operations, replace operations
 * precede remove operations. Every replace that follows the first remove is moved just
 * before it (replaces keep their order among themselves); everything else keeps the
 * request order. So `[remove /Emails/0, replace /Emails/1/IsDefault]` replaces on the
 * indices as they were before the remove.
 */
export function orderPatchOperations(operations: ProfilePatchOperation[]): ProfilePatchOperation[] {
  const firstRemove = operations.findIndex((operation) => operation.op === 'remove');
  if (firstRemove < 0) return [...operations];
  const head = operations.slice(0, firstRemove);
  const tail = operations.slice(firstRemove);
  return [
    ...head,
    ...tail.filter((operation) => operation.op === 'replace'),
    ...tail.filter((operation) => operation.op !== 'replace'),
  ];
}

/** Decides whether a stored element the written body does not name is kept. */
export type KeepUnnamed = (collection: string, element: ElementBody) => boolean;

/**
 * Inactive elements are not in the wire shape a patch is applied to, so an overwrite
 * with the patched body would drop them. They are put back: every stored inactive
 * element (at any depth) whose key the result does not name is kept as it was stored.
 * An element the patch names with the key of an inactive one is the patch's (as in a
 * merge, naming it brings it back). `alsoKeep` adds elements to keep the same way
 * (those outside the writer's scope).
 */
export function keepInactiveElements(
  before: ProfileData,
  after: ProfileData,
  alsoKeep: KeepUnnamed = () => false,
): ProfileData {
  return keepUnnamedElements(
    before,
    after,
    (collection, element) =>
      fieldOf(element, 'IsActive') === false || alsoKeep(collection, element),
  );
}

/** Every stored element (at any depth) that `keep` selects and `after` does not name is put back. */
export function keepUnnamedElements(
  before: ProfileData,
  after: ProfileData,
  keep: KeepUnnamed,
): ProfileData {
  keepIn(before, after, PROFILE_COLLECTIONS, keep);
  return after;
}

/** Puts back, in `after` (changed in place), the elements of `before` that `keep` selects. */
function keepIn(
  before: object,
  after: object,
  collections: Record<string, ElementRule>,
  keep: KeepUnnamed,
): void {
  for (const [collection, rule] of Object.entries(collections)) {
    const stored = listOf(fieldOf(before, collection)) ?? [];
    if (!stored.length) continue;
    const current = (listOf(fieldOf(after, collection)) ?? []).slice();
    for (const element of current) {
      const match = stored.find((candidate) => rule.key(candidate) === rule.key(element));
      if (match && Object.keys(rule.nested).length) keepIn(match, element, rule.nested, keep);
    }
    const named = new Set(current.map((element) => rule.key(element)));
    for (const element of stored) {
      if (keep(collection, element) && !named.has(rule.key(element))) {
        current.push(structuredClone(element));
      }
    }
    setField(after, collection, current);
  }
}
