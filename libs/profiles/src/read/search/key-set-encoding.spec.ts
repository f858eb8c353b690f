import { idsOfReply } from './key-set-encoding';

// The scripts themselves run against a real Redis in test/profiles/search-index.e2e-spec.ts.
describe('the key set encoding', () => {
  it('reads plain ids as they are', () => {
    expect(idsOfReply([0, ['3', '17', '900']])).toEqual([3, 17, 900]);
    expect(idsOfReply([0, []])).toEqual([]);
  });

  it('reads a split key: each part is its range number and the offsets in the range', () => {
    // Ranges of 2^8 ids: part 0 holds 1..255, part 3 holds 768..1023.
    expect(idsOfReply([8, '0', ['1', '255'], '3', ['0', '7']])).toEqual([1, 255, 768, 775]);
    // Ranges of 2^20 ids: offsets past a 2-byte intset's range.
    expect(idsOfReply([20, '2', ['70000']])).toEqual([2 * 2 ** 20 + 70000]);
    expect(idsOfReply([8])).toEqual([]);
  });
});
