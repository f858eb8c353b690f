import { InvalidInputError } from '@app/shared';
import {
  applyPatch as applyJsonPatch,
  deepClone,
  JsonPatchError,
  Operation,
} from 'fast-json-patch';
import type { PatchOperationDto } from './patch-operation.dto';

/**
 * Applies JSON Patch operations to a copy of `document` and returns it; the original is
 * never changed, so a failed operation (a failed `test`, a bad path) changes nothing.
 * `move` and `copy` are refused, as the spec says. `readOnly` lists top-level fields a
 * patch may not touch (ids, Edited), named in the 400.
 */
export function applyPatchOperations<T extends object>(
  document: T,
  operations: PatchOperationDto[],
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
    return applyJsonPatch(deepClone(document), operations as Operation[], true, false).newDocument;
  } catch (error) {
    if (error instanceof JsonPatchError) {
      const index = error.index ?? 0;
      const operation = operations[index];
      const reason =
        error.name === 'TEST_OPERATION_FAILED'
          ? 'test failed: the value at the path differs'
          : error.message.split('\n')[0];
      throw new InvalidInputError(
        `Operations[${index}] (${operation?.op} ${operation?.path}) was refused: ${reason}; nothing was changed`,
      );
    }
    throw error;
  }
}
