import { InvalidInputError } from '@app/shared';
import { parseAsOf } from './as-of.params';

const NOW = new Date('2026-06-01T12:00:00.000Z');
const parse = (value: string) => parseAsOf(value, NOW).toISOString();

describe('parseAsOf', () => {
  it('reads RFC 3339 date-times with their offset, to the millisecond', () => {
    expect(parse('2026-01-31T23:59:59Z')).toBe('2026-01-31T23:59:59.000Z');
    expect(parse('2026-01-31t23:59:59.5z')).toBe('2026-01-31T23:59:59.500Z');
    expect(parse('2026-02-01T00:59:59.999+01:00')).toBe('2026-01-31T23:59:59.999Z');
    expect(parse('2026-01-31T20:00:00-03:30')).toBe('2026-01-31T23:30:00.000Z');
    // Below a millisecond: dropped (history times are to the millisecond).
    expect(parse('2026-01-31T23:59:59.9999999Z')).toBe('2026-01-31T23:59:59.999Z');
    // A '+' the query string decoded as a space.
    expect(parse('2026-02-01T00:00:00 01:00')).toBe('2026-01-31T23:00:00.000Z');
    expect(parse('2024-02-29T00:00:00Z')).toBe('2024-02-29T00:00:00.000Z');
    expect(parse('0001-01-01T00:00:00Z')).toBe('0001-01-01T00:00:00.000Z');
    expect(parse(NOW.toISOString())).toBe(NOW.toISOString());
  });

  it.each([
    ['2026-01-31', 'RFC 3339'],
    ['2026-01-31T23:59:59', 'RFC 3339'],
    ['yesterday', 'RFC 3339'],
    ['1769904000000', 'RFC 3339'],
    ['', 'RFC 3339'],
    ['2025-02-29T00:00:00Z', 'no such date'],
    ['2026-13-01T00:00:00Z', 'no such date'],
    ['2026-01-01T24:00:00Z', 'no such time of day'],
    ['2026-01-01T00:00:60Z', 'no such time of day'],
    ['2026-01-01T00:00:00+24:00', 'no such offset'],
    ['2026-06-01T12:00:00.001Z', 'later than now (2026-06-01T12:00:00.000Z)'],
  ])('refuses %j with 400 naming asOf and the value', (value, why) => {
    const refusal = () => parseAsOf(value, NOW);
    expect(refusal).toThrow(InvalidInputError);
    expect(refusal).toThrow(`Invalid asOf (value ${JSON.stringify(value)}): `);
    expect(refusal).toThrow(why);
  });
});
