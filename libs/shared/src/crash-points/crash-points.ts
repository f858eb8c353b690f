import { Injectable } from '@nestjs/common';

/**
 * Named points between the documents of a multi-document step (a write's insert and its
 * marker, a save and its publication, a name claim and its entry), where a process may die.
 * Tests arm a point in one process (`arm`); the next flow that reaches it stops there for
 * ever, as if the process had died at that instant: nothing after the point runs, not even
 * `finally` blocks. The test then closes that process (or leaves the frozen flow behind, for
 * the api) and checks that what recovers afterwards (the sweeper, the next attempt, the
 * next reader) finds a correct state. Unarmed, a point is two Map lookups.
 */
@Injectable()
export class CrashPoints {
  private readonly armed = new Map<string, () => void>();
  private readonly resumes = new Map<string, Promise<void>>();
  private readonly faults = new Map<string, number>();
  /** Points reached under `everyFlow`: every later flow stops there too. */
  private readonly dead = new Set<string>();

  /**
   * Arms `name` once; resolves when a flow has reached it (and stopped there). With
   * `everyFlow`, every flow that reaches it afterwards stops there too: a process dies at
   * one instant, so its concurrent flows (the slices of an import batch) must not pass the
   * point between the first arrival and the test's kill.
   */
  arm(name: CrashPointName, { everyFlow = false }: { everyFlow?: boolean } = {}): Promise<void> {
    this.dead.delete(name);
    return new Promise((resolve) =>
      this.armed.set(name, () => {
        if (everyFlow) this.dead.add(name);
        resolve();
      }),
    );
  }

  /**
   * Arms `name` once as a stall: the flow that reaches it waits there until `resume` is
   * called, as a process frozen for that long (a pause of the machine, a stalled event loop).
   */
  stall(name: CrashPointName): { reached: Promise<void>; resume: () => void } {
    let resume!: () => void;
    this.resumes.set(name, new Promise<void>((resolve) => (resume = resolve)));
    return { reached: this.arm(name), resume };
  }

  /**
   * Arms `name` as a fault: the next `times` flows that reach it throw there (as the engine
   * or Redis failing at that instant: the process lives on and handles the error).
   */
  failNext(name: CrashPointName, times = 1): void {
    this.faults.set(name, times);
  }

  /** Disarms every point not reached (a test's cleanup). */
  disarmAll(): void {
    this.armed.clear();
    this.resumes.clear();
    this.faults.clear();
    this.dead.clear();
  }

  /**
   * A crash point: returns at once unless armed, else never (or, stalled, when resumed);
   * armed as a fault, throws.
   */
  async at(name: CrashPointName): Promise<void> {
    const faults = this.faults.get(name);
    if (faults) {
      if (faults > 1) this.faults.set(name, faults - 1);
      else this.faults.delete(name);
      throw new Error(`Injected failure at ${name}`);
    }
    if (this.dead.has(name)) return new Promise<never>(() => undefined);
    const reached = this.armed.get(name);
    if (!reached) return;
    this.armed.delete(name);
    const resumed = this.resumes.get(name);
    this.resumes.delete(name);
    reached();
    await (resumed ?? new Promise<never>(() => undefined));
  }
}

/** Every crash point of the service, where it lies, and what must recover it. */
export const CRASH_POINTS = {
  /** Acceptance: the profile's pending marker is stored; the write is not. */
  acceptAfterMarker: 'accept:after-marker',
  /** Acceptance: marker and write stored; the read model's `acc` and the job are not. */
  acceptAfterWriteInsert: 'accept:after-write-insert',
  /** Acceptance of a keyed write: its attempt committed; nothing answered, nothing kept. */
  acceptAfterKeyCommit: 'accept:after-key-commit',
  /** Worker: the write's history pages are stored; the profile is not saved. */
  applyAfterHistory: 'apply:after-history',
  /** Worker: the lease was renewed for the save; the profile is not saved yet. */
  applyBeforeSave: 'apply:before-save',
  /** Worker: the profile is saved; its read model is not published, the key index not updated. */
  applyAfterSave: 'apply:after-save',
  /** Bulk import run: a record is accepted as a profile write; the import's progress is not saved. */
  bulkRunAfterRecord: 'bulk-run:after-record',
  /**
   * Bulk import run: a chunk is done and the import saved, with the next chunk's new profile
   * ids when they were prepared ahead; nothing of the next chunk is stored.
   */
  bulkRunAfterChunk: 'bulk-run:after-chunk',
  /** Bulk import run: a batch's new profiles are saved; their claims and search keys are not. */
  importCreateAfterSave: 'import-create:after-save',
  /** Bulk export run: a page of rows is written; the export's progress is not saved. */
  bulkExportAfterPage: 'bulk-export:after-page',
  /** Bulk export run: the export is saved as ended with a callback due; the callback is not queued. */
  bulkExportAfterEnd: 'bulk-export:after-end',
  /** Merge step 1 (absorbed profile): the survivor's `absorb` is queued; the absorbed profile is not saved merged. */
  mergeAfterAbsorbQueued: 'merge:after-absorb-queued',
  /** Merge step 2 (survivor): one alternate-id claim moved to the survivor; the others and the save not done. */
  mergeAfterClaim: 'merge:after-claim',
  /** Merge step 2: claims moved, history and events stored; the survivor is not saved. */
  mergeBeforeAbsorbSave: 'merge:before-absorb-save',
  /** Merge step 2: the survivor is saved; the merge record is not closed. */
  mergeAfterAbsorbSave: 'merge:after-absorb-save',
  /**
   * Search key index rebuild: a page's keys are added and its partition's checkpoint is
   * stored; the next page is not read.
   */
  indexRebuildAfterCheckpoint: 'index-rebuild:after-checkpoint',
  /** Worker apply extension: a confirmation and its outbox document are stored; its mail job is not queued. */
  confirmationAfterOutbox: 'confirmation:after-outbox',
  /** Confirmation mail: the outbox document is leased; the message is not sent. */
  confirmationMailBeforeSend: 'confirmation-mail:before-send',
  /** Configuration create: the names are claimed; the entries are not stored. */
  configAfterNameClaims: 'config:after-name-claims',
} as const;

export type CrashPointName = (typeof CRASH_POINTS)[keyof typeof CRASH_POINTS];
