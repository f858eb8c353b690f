import { applyDecorators, Controller, UseGuards } from '@nestjs/common';
import {
  ApiBasicAuth,
  ApiBearerAuth,
  ApiForbiddenResponse,
  ApiTags,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import { OperatorGuard } from './operator-credential';

/** The 401 of an operator route. */
export const OPERATOR_UNAUTHORIZED =
  'The operator credential is missing or wrong (with WWW-Authenticate)';

/**
 * A controller of operator routes at `path`, outside any client: behind the operator
 * credential (OPERATOR_TOKEN, OperatorGuard), documented with both schemes it accepts and its
 * 401 and 403. `unauthorized` words the 401 where a controller says it otherwise.
 */
export function OperatorController(
  path: string,
  docs: { tag: string; unauthorized?: string },
): ClassDecorator {
  // Applied in this order, as stacked decorators from the bottom up: bearer is listed first.
  return applyDecorators(
    Controller(path),
    ApiForbiddenResponse({
      description: 'No operator credential is configured (OPERATOR_TOKEN unset)',
    }),
    ApiUnauthorizedResponse({ description: docs.unauthorized ?? OPERATOR_UNAUTHORIZED }),
    ApiBearerAuth(),
    ApiBasicAuth('operatorBasic'),
    UseGuards(OperatorGuard),
    ApiTags(docs.tag),
  );
}
