import { Injectable, type PipeTransform } from '@nestjs/common';
import { InvalidInputError } from '../errors/domain-errors';
import type { PatchOperation } from './json-patch';

/*
 * The one reading of a PATCH body (configuration entries and profiles alike): what can be
 * checked without the document. A non-empty array of at most MAX_PATCH_OPERATIONS objects,
 * each with a supported `op`, a JSON pointer `path` (`/...`, `~` only as `~0`/`~1`) and a
 * `value` where the op needs one, and no other field than `from`. Every problem is named by
 * `Operations[i]` and the value sent; the operations keep the request's order.
 */

export const SUPPORTED_PATCH_OPS = ['add', 'remove', 'replace', 'test'] as const;
export const MAX_PATCH_OPERATIONS = 1000;

/** isJsonPointer as a pattern (for the OpenAPI document): `/...`, `~` only as `~0` or `~1`. */
export const JSON_POINTER_PATTERN = '^(/([^~]|~[01])*)+$';

/** A checked operation (move and copy are refused before they get here). */
export interface CheckedPatchOperation extends PatchOperation {
  op: (typeof SUPPORTED_PATCH_OPS)[number];
}

/** What a PATCH body holds: the operations, or one message per problem. */
export function checkPatchOperations(
  body: unknown,
  what = 'The body',
): { operations: CheckedPatchOperation[]; problems: string[] } {
  if (!Array.isArray(body) || body.length === 0) {
    return {
      operations: [],
      problems: [`${what} must be a non-empty array of PATCH operations ({"op", "path", "value"})`],
    };
  }
  if (body.length > MAX_PATCH_OPERATIONS) {
    return {
      operations: [],
      problems: [`${what} has ${body.length} operations; at most ${MAX_PATCH_OPERATIONS}`],
    };
  }
  const problems: string[] = [];
  const operations: CheckedPatchOperation[] = [];
  body.forEach((item: unknown, index) => {
    const here = `Operations[${index}]`;
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
        `Invalid ${here}.op (value ${shown(op)}): must be one of add, remove, replace, test`,
      );
      return;
    }
    if (typeof path !== 'string' || !isJsonPointer(path)) {
      problems.push(
        `Invalid ${here}.path (value ${shown(path)}): must be a JSON pointer to a field ("/Name", "/Emails/0/EmailAddress")`,
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
        : { op: op as CheckedPatchOperation['op'], path, value: value as unknown },
    );
  });
  return { operations: problems.length ? [] : operations, problems };
}

/** The operations of a PATCH body, or an InvalidInputError (400) naming every problem. */
export function parsePatchOperations(body: unknown, what?: string): CheckedPatchOperation[] {
  const { operations, problems } = checkPatchOperations(body, what);
  if (problems.length) throw new InvalidInputError(problems.join('; '));
  return operations;
}

/** `@Body(PatchOperationsPipe)`: a body that is a JSON array of operations. */
@Injectable()
export class PatchOperationsPipe implements PipeTransform<unknown, CheckedPatchOperation[]> {
  transform(body: unknown): CheckedPatchOperation[] {
    return parsePatchOperations(body);
  }
}

/** `@Body(PatchRequestPipe)`: a body `{"Operations": [...]}` (PATCH by alternate id). */
@Injectable()
export class PatchRequestPipe implements PipeTransform<unknown, CheckedPatchOperation[]> {
  transform(body: unknown): CheckedPatchOperation[] {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      throw new InvalidInputError('The body must be an object {"Operations": [PATCH operations]}');
    }
    const unknown = Object.keys(body).filter((field) => field !== 'Operations');
    if (unknown.length)
      throw new InvalidInputError(unknown.map((f) => `Unknown field ${f}`).join('; '));
    return parsePatchOperations((body as { Operations?: unknown }).Operations, 'Operations');
  }
}

/** `/a/b~1c` (a pointer to the whole document, "", is refused: entries are patched, not replaced). */
function isJsonPointer(path: string): boolean {
  return path.startsWith('/') && !/~[^01]|~$/.test(path);
}

function shown(value: unknown): string {
  return value === undefined ? 'missing' : JSON.stringify(value);
}
