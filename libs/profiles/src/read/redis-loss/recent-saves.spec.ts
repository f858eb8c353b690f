import type { ProfileSettings } from '../../profile-settings';
import { RecentSaves } from './recent-saves';

const settings = (redisRepairWindowMs: number) => ({ redisRepairWindowMs }) as ProfileSettings;

describe('RecentSaves', () => {
  it('answers the profiles saved within the window, oldest save first, each once', () => {
    const recent = new RecentSaves(settings(60_000));
    recent.note('a', 1, 1_000);
    recent.note('a', 2, 2_000);
    recent.note('b', 1, 3_000);
    recent.note('a', 1, 4_000); // saved again: now the latest
    expect(recent.within(5_000)).toEqual([
      { clientId: 'a', profileId: 2 },
      { clientId: 'b', profileId: 1 },
      { clientId: 'a', profileId: 1 },
    ]);
  });

  it('lets go of the saves older than the window', () => {
    const recent = new RecentSaves(settings(60_000));
    recent.note('a', 1, 1_000);
    recent.note('a', 2, 30_000);
    expect(recent.within(61_001)).toEqual([{ clientId: 'a', profileId: 2 }]);
    expect(recent.within(90_001)).toEqual([]);
  });

  it('keeps nothing with a window of 0', () => {
    const recent = new RecentSaves(settings(0));
    recent.note('a', 1, 1_000);
    expect(recent.within(1_000)).toEqual([]);
  });
});
