import { laneOfWrite } from './write-lanes';

describe('laneOfWrite', () => {
  it("puts a client's writes in the interactive class", () => {
    expect(laneOfWrite({ userId: 'alice' })).toBe('interactive');
  });

  it('puts system writes and background writes (a bulk import) in the bulk class', () => {
    expect(laneOfWrite({ userId: 'system:consent-version' })).toBe('bulk');
    expect(laneOfWrite({ userId: 'alice', background: true })).toBe('bulk');
  });
});
