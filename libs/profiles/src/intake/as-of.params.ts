import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { ApiQuery } from '@nestjs/swagger';
import { type Caller, grants } from '@app/auth';
import { InvalidInputError, PermissionDeniedError, queryOf, singleQueryValue } from '@app/shared';

/** The OpenAPI description of the `asOf` query parameter (docs/profile-data-api.md, history). */
export const AS_OF_DESCRIPTION =
  'Answers the profile as it stood at this instant (RFC 3339 date-time with an offset, e.g. 2026-01-31T23:59:59.999Z), rebuilt from its history: every write accepted at or before it (the time Edited.ModifiedDate shows), in sequence order. Rebuilt: the standard fields, CustomerName, custom fields, contact elements, their preferences and consents, and the profile preferences and consents. Not in history, so not rebuilt: Groups and ProfileTags are left out of the answer; AlternateIds are the current ones (they identify the profile, as in the History routes). Edited stamps show the write that last changed an item (a write that restated an item unchanged leaves no entry); the profile\'s Edited.ModifiedDate is the last write that changed something history records. UpdateStatus is "Pending Update" when a write accepted at or before the instant is not applied yet (the answer may still change), else "Complete". Needs history:read as well as profiles:read (403 otherwise). 404 naming the earliest instant available when the instant precedes the profile\'s creation (history is kept for the profile\'s life and erased with it); 400 for a malformed value or an instant later than now. The answer carries the ETag of its own bytes.';

/** Parts of an RFC 3339 date-time; a space stands for a `+` the query string decoded. */
const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:([Zz])|([+\- ])(\d{2}):(\d{2}))$/;

/**
 * An `asOf` value: an RFC 3339 date-time with its offset (fractions below a millisecond
 * dropped: history times are to the millisecond), not later than `now`. 400 naming asOf and
 * the value otherwise.
 */
export function parseAsOf(value: string, now: Date = new Date()): Date {
  const invalid = (why: string) =>
    new InvalidInputError(`Invalid asOf (value ${JSON.stringify(value)}): ${why}`);
  const parts = DATE_TIME.exec(value.trim());
  if (!parts) {
    throw invalid(
      'must be an RFC 3339 date-time with an offset, such as 2026-01-31T23:59:59Z or 2026-01-31T23:59:59.000+01:00 (send + as %2B)',
    );
  }
  const [, y, mo, d, h, mi, s, fraction, zulu, sign, oh, om] = parts;
  const [year, month, day, hour, minute, second] = [y, mo, d, h, mi, s].map(Number);
  const days = [31, isLeap(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
  if (month < 1 || month > 12 || day < 1 || day > days[month - 1]) throw invalid('no such date');
  if (hour > 23 || minute > 59 || second > 59) throw invalid('no such time of day');
  const offsetMinutes = zulu ? 0 : Number(oh) * 60 + Number(om);
  if (!zulu && (Number(oh) > 23 || Number(om) > 59)) throw invalid('no such offset');
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, Number((fraction ?? '').padEnd(3, '0').slice(0, 3)));
  const at = new Date(date.getTime() - (sign === '-' ? -offsetMinutes : offsetMinutes) * 60_000);
  if (at.getTime() > now.getTime()) {
    throw invalid(`later than now (${now.toISOString()}); leave asOf out for the current state`);
  }
  return at;
}

function isLeap(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

/**
 * A past state is history: asOf needs `history:read` on top of the route's `profiles:read`
 * (403 otherwise, as the History routes answer), so a group without it sees only the present.
 */
export function checkAsOfPermission(caller: Caller): void {
  if (!grants(caller.group, 'history', 'read')) {
    throw new PermissionDeniedError(
      `The user group "${caller.group.name}" has no read permission on history (asOf)`,
    );
  }
}

/** The optional `asOf` query parameter: undefined when absent, else parseAsOf's instant. */
export const AsOfQuery = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): Date | undefined => {
    const value = singleQueryValue(queryOf(ctx), 'asOf');
    return value === undefined ? undefined : parseAsOf(value);
  },
);

export const ApiAsOfQuery = (): MethodDecorator =>
  ApiQuery({
    name: 'asOf',
    required: false,
    description: AS_OF_DESCRIPTION,
    schema: { type: 'string', format: 'date-time' },
    example: '2026-01-31T23:59:59.999Z',
  });
