import { DEFAULT_DELIVERY_RETRY_DELAYS_MS, JITTER, retryDelayMs } from './delivery-schedule';

describe('retryDelayMs', () => {
  it('takes the schedule in turn, then says the attempts are spent', () => {
    const schedule = [1000, 5000];
    expect(retryDelayMs(schedule, 1, 0.5)).toBe(1000);
    expect(retryDelayMs(schedule, 2, 0.5)).toBe(5000);
    expect(retryDelayMs(schedule, 3, 0.5)).toBeNull();
  });

  it('moves each delay by up to the jitter either way', () => {
    expect(retryDelayMs([1000], 1, 0)).toBe(1000 * (1 - JITTER));
    expect(retryDelayMs([1000], 1, 0.999999)).toBe(Math.round(1000 * (1 + JITTER)));
  });

  it('spans about a day by default', () => {
    const total = DEFAULT_DELIVERY_RETRY_DELAYS_MS.reduce((sum, ms) => sum + ms, 0);
    expect(total / 3_600_000).toBeGreaterThan(24);
    expect(total / 3_600_000).toBeLessThan(30);
  });
});
