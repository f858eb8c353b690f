import { Readable } from 'node:stream';
import { UnreadableRecord } from '../domain/bulk-import';
import { ndjsonRecords } from './ndjson-records';

async function read(pieces: Buffer[], maxBytes = 1_000_000): Promise<unknown[]> {
  const records: unknown[] = [];
  for await (const record of ndjsonRecords(Readable.from(pieces), maxBytes)) records.push(record);
  return records;
}

describe('ndjsonRecords', () => {
  it('one record per non-blank line, a character split between two pieces kept whole', async () => {
    const text = Buffer.from('{"a":"ë😀"}\n\n  \n{"b":2}');
    // Cut inside the two-byte ë and inside the four-byte emoji.
    const cuts = [8, 10, 13];
    const pieces = [0, ...cuts].map((start, i) => text.subarray(start, [...cuts, text.length][i]));
    expect(await read(pieces)).toEqual([{ a: 'ë😀' }, { b: 2 }]);
  });

  it('a line that is not JSON, or holds __proto__, is an unreadable record naming its line', async () => {
    const records = await read([Buffer.from('{"a":1}\nnot json\n{"__proto__":{"x":1}}\r\n')]);
    expect(records[0]).toEqual({ a: 1 });
    expect(records[1]).toBeInstanceOf(UnreadableRecord);
    expect((records[1] as UnreadableRecord).reason).toMatch(/^Line 2 is not a JSON record/);
    expect((records[2] as UnreadableRecord).reason).toMatch(/^Line 3 is not a JSON record/);
  });

  it('more than maxBytes in all: a 413', async () => {
    await expect(
      read([Buffer.from('{"a":1}\n'), Buffer.from('{"b":2}\n')], 10),
    ).rejects.toMatchObject({
      status: 413,
    });
  });
});
