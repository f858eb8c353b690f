import { HttpStatus } from '@nestjs/common';
import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import secureJson from 'secure-json-parse';
import { ApiError, bodyBoundViolation } from '@app/shared';
import { UnreadableRecord } from '../domain/bulk-import';

/**
 * The records of a newline-delimited JSON body, one per non-blank line, read as the body
 * arrives: at most one line is held besides what the reader has not taken yet. More than
 * `maxBytes` in all is a 413 (raised where the count passes it; what was staged before is
 * not counted: the import is saved only at the end of a stage).
 */
export async function* ndjsonRecords(stream: Readable, maxBytes: number): AsyncGenerator<unknown> {
  let bytes = 0;
  let rest = '';
  let line = 0;
  // Decodes across pieces: a character may be split between two of them.
  const decoder = new StringDecoder('utf8');
  for await (const piece of stream) {
    const buffer = typeof piece === 'string' ? Buffer.from(piece) : (piece as Buffer);
    bytes += buffer.length;
    if (bytes > maxBytes) {
      // The rest is not read: the connection closes after the answer (as Fastify does for
      // a body over its limit), rather than under the client before it.
      throw new ApiError(
        HttpStatus.PAYLOAD_TOO_LARGE,
        `The body is larger than ${maxBytes} bytes (BULK_STAGE_MAX_BYTES); stage the records in several calls`,
        { Connection: 'close' },
      );
    }
    const lines = (rest + decoder.write(buffer)).split('\n');
    rest = lines.pop() ?? '';
    for (const text of lines) {
      line++;
      if (text.trim() !== '') yield parseLine(text, line);
    }
  }
  rest += decoder.end();
  line++;
  if (rest.trim() !== '') yield parseLine(rest, line);
}

function parseLine(text: string, line: number): unknown {
  let value: unknown;
  try {
    value = secureJson.parse(text, { protoAction: 'error', constructorAction: 'error' });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return new UnreadableRecord(`Line ${line} is not a JSON record: ${message}`);
  }
  const bound = bodyBoundViolation(value);
  return bound ? new UnreadableRecord(`Line ${line}: ${bound}`) : value;
}
