import { applyPatch, deepClone, JsonPatchError, type Operation } from 'fast-json-patch';
import { InvalidInputError } from '../errors/domain-errors';

/** One JSON Patch operation as this service accepts it (move and copy are refused). */
export interface PatchOperation {
  op: 'add' | 'remove' | 'replace' | 'test' | string;
  path: string;
  value?: unknown;
  from?: string;
}

/** A patch the document refuses (a failed `test`, a path that does not resolve): a 400. */
export class PatchRefusedError extends InvalidInputError {}

/**
 * The one JSON Patch engine of the service (configuration entries and profiles): applies
 * the operations, in order, to a copy of `document` and returns it; all or nothing, the
 * original is never changed. `move` and `copy` are refused (the spec's rule), and so is an
 * operation on a top-level field listed in `readOnly` (ids, Edited), named in the 400.
 * Throws PatchRefusedError naming the operation that failed.
 */
export function applyPatchOperations<T extends object>(
  document: T,
  operations: PatchOperation[],
  readOnly: string[] = [],
): T {
  if (!Array.isArray(operations) || operations.length === 0) {
    throw new InvalidInputError('The body must be a non-empty array of PATCH operations');
  }
  operations.forEach((operation, index) => {
    if (operation.op === 'move' || operation.op === 'copy') {
      throw new InvalidInputError(
        `Operations[${index}].op "${operation.op}" is not supported (use add, remove, replace or test)`,
      );
    }
    const top = operation.path.split('/')[1];
    if (top !== undefined && readOnly.includes(top)) {
      throw new InvalidInputError(`Operations[${index}].path "${operation.path}" is read-only`);
    }
  });
  try {
    return applyPatch(deepClone(document), operations as Operation[], true, false).newDocument;
  } catch (error) {
    if (!(error instanceof JsonPatchError)) throw error;
    const index = error.index ?? 0;
    const operation = operations[index];
    const reason =
      error.name === 'TEST_OPERATION_FAILED'
        ? 'test failed: the value at the path differs'
        : error.message.split('\n')[0];
    throw new PatchRefusedError(
      `Operations[${index}] (${operation?.op} ${operation?.path}) was refused: ${reason}; nothing was changed`,
    );
  }
}
