import { PermanentWriteError } from './permanent-write-error';
import { parseWriteBody, writeBodyOf } from './profile-write-body';

describe('parseWriteBody: a stored write body typed by its kind', () => {
  it('reads each kind as its body', () => {
    const expire = parseWriteBody({ kind: 'expire', body: '{"AsOf":"2026-01-01T00:00:00.000Z"}' });
    expect(expire.kind === 'expire' && expire.body.AsOf).toBe('2026-01-01T00:00:00.000Z');
    const merge = parseWriteBody({ kind: 'merge', body: '{"CustomerType":"Customer"}' });
    expect(merge.kind === 'merge' && merge.body.CustomerType).toBe('Customer');
  });

  it('reads an absent body as an empty object (a delete)', () => {
    expect(parseWriteBody({ kind: 'delete' })).toEqual({ kind: 'delete', body: {} });
  });

  it('refuses a body that is no JSON object, for good', () => {
    for (const body of ['[1]', '"text"', '7', 'null']) {
      expect(() => parseWriteBody({ kind: 'merge', body })).toThrow(PermanentWriteError);
    }
  });

  it('writeBodyOf reads a write of the kind named, and refuses another kind', () => {
    const write = { kind: 'absorb' as const, body: '{"AbsorbedProfileId":4}' };
    expect(writeBodyOf(write, 'absorb').AbsorbedProfileId).toBe(4);
    expect(() => writeBodyOf(write, 'merged-into')).toThrow(
      'absorb write was read as a merged-into',
    );
  });
});
