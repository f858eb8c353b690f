import { isSaleOrShare } from './client-presentation';

describe('isSaleOrShare', () => {
  const marked = { CustomProperties: [{ Key: ' saleorshare ', Value: 'TRUE ' }] };
  const none = { CustomProperties: [] };

  it('takes the program property, any letter case, trimmed', () => {
    expect(isSaleOrShare(marked, none)).toBe(true);
    expect(isSaleOrShare(none, none)).toBe(false);
    expect(isSaleOrShare({ CustomProperties: [{ Key: 'SaleOrShare', Value: 'yes' }] }, none)).toBe(
      false,
    );
  });

  it("lets a filter's own property win over its program's", () => {
    expect(
      isSaleOrShare(marked, { CustomProperties: [{ Key: 'SaleOrShare', Value: 'false' }] }),
    ).toBe(false);
    expect(isSaleOrShare(none, { CustomProperties: [{ Key: 'SaleOrShare', Value: 'true' }] })).toBe(
      true,
    );
  });
});
