import { PROFILE_COLLECTIONS, type ElementRule } from './element-rules';
import type { ProfileData } from './profile-data.schema';

/** One JSON Patch operation as stored with a queued `patch` write (move and copy refused). */
export interface ProfilePatchOperation {
  op: 'add' | 'remove' | 'replace' | 'test';
  path: string;
  value?: unknown;
}

export const SUPPORTED_PATCH_OPS = ['add', 'remove', 'replace', 'test'] as const;
export const MAX_PATCH_OPERATIONS = 1000;

/**
 * What can be checked of a PATCH body without the profile: a non-empty array of objects
 * with a supported `op`, a JSON pointer `path` (`/...`, `~` only as `~0`/`~1`) and a
 * `value` where the op needs one. Returns the problems (each names `<label>[i]`), or
 * the operations in the order they are applied (see `orderPatchOperations`).
 */
export function checkPatchOperations(
  body: unknown,
  label = 'Operations',
): { operations: ProfilePatchOperation[]; problems: string[] } {
  if (!Array.isArray(body) || body.length === 0) {
    return {
      operations: [],
      problems: [
        `${label} must be a non-empty array of PATCH operations ({"op", "path", "value"})`,
      ],
    };
  }
  if (body.length > MAX_PATCH_OPERATIONS) {
    return {
      operations: [],
      problems: [`${label} has ${body.length} operations; at most ${MAX_PATCH_OPERATIONS}`],
    };
  }
  const problems: string[] = [];
  const operations: ProfilePatchOperation[] = [];
  body.forEach((item: unknown, index) => {
    const here = `${label}[${index}]`;
    if (typeof item !== 'object' || item === null || Array.isArray(item)) {
      problems.push(`Invalid ${here} (value ${JSON.stringify(item)}): must be an object`);
      return;
    }
    const { op, path, value, from, ...rest } = item as Record<string, unknown>;
    for (const field of Object.keys(rest)) problems.push(`Unknown field ${here}.${field}`);
    if (op === 'move' || op === 'copy') {
      problems.push(
        `Invalid ${here}.op (value "${op}"): move and copy are not supported (use add, remove, replace or test)`,
      );
      return;
    }
    if (typeof op !== 'string' || !(SUPPORTED_PATCH_OPS as readonly string[]).includes(op)) {
      problems.push(
        `Invalid ${here}.op (value ${JSON.stringify(op ?? null)}): must be one of add, remove, replace, test`,
      );
      return;
    }
    if (typeof path !== 'string' || !isJsonPointer(path)) {
      problems.push(
        `Invalid ${here}.path (value ${JSON.stringify(path ?? null)}): must be a JSON pointer to a field of the profile ("/Emails/0/EmailAddress")`,
      );
      return;
    }
    if (from !== undefined && typeof from !== 'string') {
      problems.push(`Invalid ${here}.from (value ${JSON.stringify(from)}): must be a string`);
    }
    if (op !== 'remove' && value === undefined) {
      problems.push(`Invalid ${here}.value (value missing): ${op} needs a value`);
      return;
    }
    operations.push(
      op === 'remove'
        ? { op, path }
        : { op: op as ProfilePatchOperation['op'], path, value: value as unknown },
    );
  });
  return { operations: problems.length ? [] : orderPatchOperations(operations), problems };
}

/** `/a/b~1c` (a pointer to the whole document, "", is refused: a profile is patched, not replaced). */
function isJsonPointer(path: string): boolean {
  return path.startsWith('/') && !/~[^01]|~$/.test(path);
}

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

type Element = Record<string, unknown>;

/** Decides whether a stored element the written body does not name is kept. */
export type KeepUnnamed = (collection: string, element: Element) => boolean;

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
    (collection, element) => element.IsActive === false || alsoKeep(collection, element),
  );
}

/** Every stored element (at any depth) that `keep` selects and `after` does not name is put back. */
export function keepUnnamedElements(
  before: ProfileData,
  after: ProfileData,
  keep: KeepUnnamed,
): ProfileData {
  const result = after as unknown as Element;
  keepIn(before as unknown as Element, result, PROFILE_COLLECTIONS, keep);
  return result as unknown as ProfileData;
}

function keepIn(
  before: Element,
  after: Element,
  collections: Record<string, ElementRule>,
  keep: KeepUnnamed,
): void {
  for (const [collection, rule] of Object.entries(collections)) {
    const stored = (before[collection] as Element[] | undefined) ?? [];
    if (!stored.length) continue;
    const current = ((after[collection] as Element[] | undefined) ?? []).slice();
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
    after[collection] = current;
  }
}
