import type { ProfileWrite } from '../../../domain/profile-write.schema';
import type { ProfileSettings } from '../../../profile-settings';
import type { ProfileRepository } from '../../../repositories/profile.repository';
import type { ProfileWriteRepository } from '../../../repositories/profile-write.repository';
import type { ProfileMergeApply } from '../../../services/profile-merge-apply.service';
import type { WriteFates } from '../../../services/write-fates.service';
import { historyWrite, profileAt, T1 } from '../../../testing';
import type { WriteStarts } from '../write-starts';
import { LoadStage } from './load.stage';

/** A LoadStage over records held in memory; `reads` lists each sequence number read. */
function stageOver(records: Map<number, ProfileWrite | Error>) {
  const reads: number[] = [];
  const findSeq = (_client: string, _profile: number, seq: number) => {
    reads.push(seq);
    const found = records.get(seq);
    return found instanceof Error ? Promise.reject(found) : Promise.resolve(found ?? null);
  };
  const stage = new LoadStage(
    {} as ProfileRepository,
    { findSeq } as unknown as ProfileWriteRepository,
    { resolve: () => Promise.resolve({ kind: 'apply' }) } as unknown as WriteFates,
    {
      startedAll: (writes: ProfileWrite[]) => Promise.resolve(writes.map(() => 1)),
      notStarted: () => Promise.resolve(),
    } as unknown as WriteStarts,
    { maxWriteAttempts: 5 } as ProfileSettings,
    { absorbWait: () => Promise.resolve(undefined) } as unknown as ProfileMergeApply,
  );
  return { stage, reads };
}

const WINDOW = { upTo: 3, probe: false, max: 100 };

describe('LoadStage read-ahead', () => {
  it('takes the records read ahead instead of reading them again, and reads the rest', async () => {
    const records = new Map<number, ProfileWrite | Error>(
      [1, 2, 3].map((seq) => [seq, historyWrite(seq, 'merge', T1)]),
    );
    const { stage, reads } = stageOver(records);
    const ahead = stage.readAhead('c1', 7, 1, 2);
    expect(reads).toEqual([1, 2]);
    const loaded = await stage.writes(profileAt(undefined, 0), WINDOW, ahead);
    expect(loaded.writes.map(({ write }) => write.seq)).toEqual([1, 2, 3]);
    expect(reads).toEqual([1, 2, 3]);
  });

  it('uses only the numbers the pass takes when the profile is further than the guess', async () => {
    const records = new Map<number, ProfileWrite | Error>(
      [1, 2, 3].map((seq) => [seq, historyWrite(seq, 'merge', T1)]),
    );
    const { stage, reads } = stageOver(records);
    const ahead = stage.readAhead('c1', 7, 1, 3);
    const loaded = await stage.writes(profileAt(undefined, 2), WINDOW, ahead);
    expect(loaded.writes.map(({ write }) => write.seq)).toEqual([3]);
    expect(reads).toEqual([1, 2, 3]);
  });

  it('a failed read ahead is no unhandled rejection; the pass that takes it fails with it', async () => {
    const unhandled: unknown[] = [];
    const listener = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', listener);
    try {
      const records = new Map<number, ProfileWrite | Error>([[1, new Error('engine down')]]);
      const { stage } = stageOver(records);
      // Never taken (the job ended before its pass): nothing unhandled.
      stage.readAhead('c1', 7, 1, 1);
      const ahead = stage.readAhead('c1', 7, 1, 1);
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).toEqual([]);
      // Taken: the pass fails with it, as a read of its own would.
      await expect(stage.writes(profileAt(undefined, 0), WINDOW, ahead)).rejects.toThrow(
        'engine down',
      );
    } finally {
      process.off('unhandledRejection', listener);
    }
  });
});
