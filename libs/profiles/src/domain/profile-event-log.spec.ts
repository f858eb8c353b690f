import { EVENT_HISTORY_MS, EVENT_LOG_MAX, nextEventLog } from './profile-event-log';

const NOW = Date.parse('2026-11-26T00:00:00Z');

describe('nextEventLog', () => {
  it('appends a write with events, and leaves the log as it is for one without', () => {
    expect(nextEventLog([{ seq: 1, at: NOW - 10 }], 2, NOW, true, NOW)).toEqual({
      log: [
        { seq: 1, at: NOW - 10 },
        { seq: 2, at: NOW },
      ],
      dropped: [],
    });
    expect(nextEventLog([{ seq: 1, at: NOW - 10 }], 2, NOW, false, NOW)).toEqual({
      log: [{ seq: 1, at: NOW - 10 }],
      dropped: [],
    });
    expect(nextEventLog(undefined, 1, NOW, true, NOW).log).toEqual([{ seq: 1, at: NOW }]);
  });

  it('drops the writes older than the kept days', () => {
    const old = NOW - EVENT_HISTORY_MS - 1;
    expect(
      nextEventLog(
        [
          { seq: 1, at: old },
          { seq: 2, at: NOW - EVENT_HISTORY_MS },
        ],
        3,
        NOW,
        true,
        NOW,
      ),
    ).toEqual({
      log: [
        { seq: 2, at: NOW - EVENT_HISTORY_MS },
        { seq: 3, at: NOW },
      ],
      dropped: [1],
    });
  });

  it('keeps at most EVENT_LOG_MAX writes, the newest', () => {
    const full = Array.from({ length: EVENT_LOG_MAX }, (_, k) => ({ seq: k + 1, at: NOW }));
    const { log, dropped } = nextEventLog(full, EVENT_LOG_MAX + 1, NOW, true, NOW);
    expect(log).toHaveLength(EVENT_LOG_MAX);
    expect(log[0].seq).toBe(2);
    expect(log[log.length - 1].seq).toBe(EVENT_LOG_MAX + 1);
    expect(dropped).toEqual([1]);
  });

  it('replaces what an attempt of this write or a later one left', () => {
    expect(
      nextEventLog(
        [
          { seq: 1, at: NOW },
          { seq: 2, at: NOW - 5 },
          { seq: 3, at: NOW - 5 },
        ],
        2,
        NOW,
        false,
        NOW,
      ),
    ).toEqual({
      log: [{ seq: 1, at: NOW }],
      dropped: [],
    });
  });
});
