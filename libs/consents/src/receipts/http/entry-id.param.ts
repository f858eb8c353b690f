import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { ApiParam } from '@nestjs/swagger';
import { InvalidInputError } from '@app/shared';

const ENTRY_ID = /^(\d{1,10})\.(\d{1,10})$/;

/**
 * `<seq>.<n>`, each 1 to 10 digits; else a 400 quoting the value. A well-formed id that no
 * entry can have (seq 0, past INT32_MAX) is a 404 like any id no entry has.
 */
export function parseEntryId(value: string | undefined): { seq: number; n: number } {
  const match = ENTRY_ID.exec(value ?? '');
  if (!match) {
    throw new InvalidInputError(
      `Invalid entryId (value ${JSON.stringify(value ?? null)}): must be <seq>.<n>, the write's sequence number and the entry's index in it (each 1 to 10 digits), e.g. 3.1`,
    );
  }
  return { seq: Number(match[1]), n: Number(match[2]) };
}

/** The `{entryId}` path segment, parsed from the raw string. */
export const EntryIdParam = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): { seq: number; n: number } => {
    const request = ctx.switchToHttp().getRequest<{ params: Record<string, string | undefined> }>();
    return parseEntryId(request.params.entryId);
  },
);

export const ApiEntryIdParam = (): MethodDecorator =>
  ApiParam({
    name: 'entryId',
    schema: {
      type: 'string',
      pattern: '^[0-9]{1,10}\\.[0-9]{1,10}$',
      maxLength: 21,
      example: '3.1',
    },
    description:
      "The history entry: <seq>.<n>, its write's sequence number and its index in the write (an EntryId of GET .../ConsentReceipts)",
  });
