import { applyDecorators, HttpCode, type Type } from '@nestjs/common';
import {
  ApiBody,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiOkResponse,
  ApiOperation,
  type ApiOperationOptions,
} from '@nestjs/swagger';
import { ApiAuth } from '@app/auth';
import { PatchOperationDto } from './patch-operation.dto';

/*
 * The three kinds of route every configuration area has, each one decorator: who may call
 * it and what it answers, so the areas' controllers say only what differs.
 */

/** A read: configuration read permission, 200 with `ok`. */
export function ConfigRead(operation: ApiOperationOptions, ok: Type<unknown>): MethodDecorator {
  return applyDecorators(
    ApiAuth('configuration', 'read'),
    ApiOperation(operation),
    ApiOkResponse({ type: ok }),
  );
}

/** A create of entries: configuration write permission, 201 with `created`, 409 `conflict`. */
export function ConfigCreate(
  operation: ApiOperationOptions,
  created: Type<unknown>,
  conflict: string,
): MethodDecorator {
  return applyDecorators(
    HttpCode(201),
    ApiAuth('configuration', 'write'),
    ApiOperation(operation),
    ApiCreatedResponse({ type: created }),
    ApiConflictResponse({ description: conflict }),
  );
}

/**
 * A PATCH of one entry: configuration write permission, a JSON array of operations, 200
 * with `ok`, 409 `conflict`.
 */
export function ConfigPatch(
  operation: ApiOperationOptions,
  ok: Type<unknown>,
  conflict: string,
): MethodDecorator {
  return applyDecorators(
    ApiAuth('configuration', 'write'),
    ApiOperation(operation),
    ApiBody({ type: [PatchOperationDto] }),
    ApiOkResponse({ type: ok }),
    ApiConflictResponse({ description: conflict }),
  );
}
