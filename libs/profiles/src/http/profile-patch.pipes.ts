import { Injectable, type PipeTransform } from '@nestjs/common';
import { InvalidInputError } from '@app/shared';
import { checkPatchOperations, type ProfilePatchOperation } from '../domain/profile-patch';

/**
 * PATCH by id: the body is a JSON array of operations. Checked before anything is
 * queued (op names, move/copy, pointer syntax, values); errors name `Operations[i]`.
 * The result is in application order (replace before remove, spec rule 4).
 */
@Injectable()
export class PatchOperationsPipe implements PipeTransform<unknown, ProfilePatchOperation[]> {
  transform(body: unknown): ProfilePatchOperation[] {
    const { operations, problems } = checkPatchOperations(body);
    if (problems.length) throw new InvalidInputError(problems.join('; '));
    return operations;
  }
}

/** PATCH by alternate id: the body is `{"Operations": [...]}`, checked as above. */
@Injectable()
export class PatchRequestPipe implements PipeTransform<unknown, ProfilePatchOperation[]> {
  transform(body: unknown): ProfilePatchOperation[] {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      throw new InvalidInputError('The body must be an object {"Operations": [PATCH operations]}');
    }
    const unknown = Object.keys(body).filter((field) => field !== 'Operations');
    if (unknown.length)
      throw new InvalidInputError(unknown.map((f) => `Unknown field ${f}`).join('; '));
    const { operations, problems } = checkPatchOperations(
      (body as { Operations?: unknown }).Operations,
    );
    if (problems.length) throw new InvalidInputError(problems.join('; '));
    return operations;
  }
}
