import { Injectable, type PipeTransform } from '@nestjs/common';
import { ApiError, describeValidationErrors } from '@app/shared';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { PatchOperationDto } from '../../common/patch-operation.dto';

const MAX_OPERATIONS = 1000;

/**
 * A PATCH body: a non-empty JSON array of operations, each validated as PatchOperationDto
 * (the global pipe does not look inside arrays). Errors name `Operations[i].field`.
 */
@Injectable()
export class PatchOperationsPipe implements PipeTransform<unknown, PatchOperationDto[]> {
  transform(body: unknown): PatchOperationDto[] {
    if (!Array.isArray(body) || body.length === 0) {
      throw ApiError.badRequest(
        'The body must be a non-empty array of PATCH operations ({"op", "path", "value"})',
      );
    }
    if (body.length > MAX_OPERATIONS) {
      throw ApiError.badRequest(
        `The body has ${body.length} operations; at most ${MAX_OPERATIONS}`,
      );
    }
    const problems: string[] = [];
    const operations = body.map((item: unknown, index) => {
      if (typeof item !== 'object' || item === null || Array.isArray(item)) {
        problems.push(`Operations[${index}] (value ${JSON.stringify(item)}): must be an object`);
        return undefined as unknown as PatchOperationDto;
      }
      const operation = plainToInstance(PatchOperationDto, item);
      const errors = validateSync(operation, {
        whitelist: true,
        forbidNonWhitelisted: true,
        validationError: { target: false, value: true },
      });
      problems.push(...describeValidationErrors(errors, `Operations[${index}]`));
      return operation;
    });
    if (problems.length) throw ApiError.badRequest(problems.join('; '));
    return operations;
  }
}
