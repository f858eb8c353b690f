import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { InvalidInputError, queryOf, type RawQuery, singleQueryValue } from '@app/shared';
import { parseSearch } from './profile-search.params';
import type { PrimaryProfile } from './search-group-profiles/search-group-profiles.query';

/*
 * Query parameters of the group-profile searches (400 naming the parameter and value).
 */

function text(query: RawQuery, name: string, required: boolean): string | undefined {
  const value = singleQueryValue(query, name);
  if (value === undefined || value.trim() === '') {
    if (required)
      throw new InvalidInputError(`Query parameter ${name} is required (value missing)`);
    return undefined;
  }
  return value;
}

export interface GroupParts {
  groupType: string;
  groupName?: string;
}

/**
 * `groupType` (required) and `groupName` (required when `nameRequired` is true, else an
 * optional filter).
 */
export const GroupParams = createParamDecorator(
  (nameRequired: boolean, ctx: ExecutionContext): GroupParts => {
    const query = queryOf(ctx);
    return {
      groupType: text(query, 'groupType', true)!,
      groupName: text(query, 'groupName', nameRequired),
    };
  },
);

type ContactCriteria = Extract<PrimaryProfile, { contact: unknown }>['contact'];

/** The primary profile's phone (`phoneNumber`, `phoneType`) or email (`emailAddress`, `emailType`). */
export const ContactParams = createParamDecorator(
  (kind: ContactCriteria['kind'], ctx: ExecutionContext): PrimaryProfile => ({
    // parseSearch answers criteria of the kind asked for.
    contact: parseSearch(kind, queryOf(ctx)) as ContactCriteria,
  }),
);
