import { WriteLanes } from './write-lanes';

describe('WriteLanes', () => {
  let now = 10_000;
  const lanes = () => new WriteLanes(3, () => now);

  it('keeps a tenant in the interactive lane up to its burst per second, then sends it to bulk', () => {
    now = 10_000;
    const subject = lanes();
    const seen = Array.from({ length: 5 }, () => subject.laneOf('a', 'user'));
    expect(seen).toEqual(['interactive', 'interactive', 'interactive', 'bulk', 'bulk']);
    // Another tenant is not affected.
    expect(subject.laneOf('b', 'user')).toBe('interactive');
  });

  it('keeps a tenant that burst in bulk for the next second too, then lets it back', () => {
    now = 20_000;
    const subject = lanes();
    for (let n = 0; n < 4; n++) subject.laneOf('a', 'user');
    now = 21_000;
    expect(subject.laneOf('a', 'user')).toBe('bulk');
    now = 22_500;
    expect(subject.laneOf('a', 'user')).toBe('interactive');
  });

  it('sends system writes to the bulk lane', () => {
    now = 30_000;
    expect(lanes().laneOf('a', 'system:consent-version')).toBe('bulk');
  });
});
