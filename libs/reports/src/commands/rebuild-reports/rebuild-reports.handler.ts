import { randomUUID } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { type Profile, ProfileCountSource } from '@app/profiles';
import { Clock, JobQueue, LeaseService } from '@app/shared';
import { reportSummary } from '../../domain/report-summary';
import { ReportsSettings } from '../../reports-settings';
import { type RebuildItem, ReportCountStore } from '../../services/report-count-store.service';
import { REBUILD_REPORTS } from '../../worker/report.job-definitions';
import { RebuildReportsCommand } from './rebuild-reports.command';

/** One job goes on from page to page for this long, then queues the next slice (fair share). */
const SLICE_MS = 5000;
const LEASE_MS = 60_000;
/** Profiles read too early (saved since) are read again after these waits, then the job fails. */
const RETRY_DELAYS_MS = [50, 200, 500, 1000, 2000, 5000, 5000, 10_000, 10_000, 30_000];

/**
 * Rebuilds a client's current counts while the live ones keep being counted
 * (docs/reports.md, "Rebuild"): pages through the client's profile ids, each profile read
 * by `_id` (ProfileCountSource: no scan, on any engine), adds each profile's summary to a
 * fresh hash with a mark of the appliedSeq it was read at, and at the end swaps the fresh
 * hash and marks for the live ones in one script. A change counted while the rebuild runs
 * goes into the fresh counts too when the rebuild has read its profile (by the rebuild's
 * mark), so the swap loses and doubles nothing; a profile saved between its read and its
 * page is read again. Resumable: the cursor and the fresh counts live in Redis, so a job
 * that dies is resumed by the next one (one at a time: a lease per client).
 */
@CommandHandler(RebuildReportsCommand)
export class RebuildReportsHandler implements ICommandHandler<RebuildReportsCommand> {
  private readonly logger = new Logger('ReportsRebuild');

  constructor(
    private readonly countStore: ReportCountStore,
    private readonly source: ProfileCountSource,
    private readonly lease: LeaseService,
    private readonly jobs: JobQueue,
    private readonly settings: ReportsSettings,
    private readonly clock: Clock,
  ) {}

  async execute({ clientId, restart }: RebuildReportsCommand): Promise<void> {
    const name = `reports-rebuild:${clientId}`;
    const held = await this.lease.acquire(name, LEASE_MS);
    if (!held) {
      // A rebuild of this client is running: it carries on; a restart waits for its slice.
      if (restart)
        await this.jobs.enqueue(REBUILD_REPORTS, { clientId, restart }, { delayMs: 1000 });
      return;
    }
    const more = await this.lease.whileHeld(name, held, LEASE_MS, () =>
      this.slice(clientId, restart),
    );
    if (more) await this.jobs.enqueue(REBUILD_REPORTS, { clientId }, { lane: 'bulk' });
    else await this.countStore.clearRebuildRequest(clientId);
  }

  /** One slice of the rebuild; true when it is not finished. */
  private async slice(clientId: string, restart: boolean): Promise<boolean> {
    const started = Date.now();
    const begun = await this.countStore.startRebuild(clientId, randomUUID(), restart);
    const { token } = begun;
    let { cursor } = begun;
    for (;;) {
      const page = await this.source.read(clientId, cursor + 1, this.settings.rebuildBatchSize);
      const outcome = await this.submit(clientId, token, page.next - 1, page.profiles);
      if (outcome === 'superseded') return false;
      cursor = page.next - 1;
      if (page.done) break;
      if (Date.now() - started > SLICE_MS) return true;
    }
    for (const wait of [0, ...RETRY_DELAYS_MS]) {
      if (wait) await new Promise((resolve) => setTimeout(resolve, wait));
      const end = await this.countStore.finishRebuild(clientId, token, this.clock.now());
      if (end === 'superseded') return false;
      if (end.swapped) {
        this.logger.log(`counts of ${clientId} rebuilt (${cursor} profile ids read)`);
        return false;
      }
      // Profiles not read yet (read too early, or given an id below the cursor late).
      const profiles = await Promise.all(end.read.map((id) => this.source.one(clientId, id)));
      const read = profiles.map((profile, k) => profile ?? absent(clientId, end.read[k]));
      if ((await this.submit(clientId, token, cursor, read)) === 'superseded') return false;
    }
    throw new Error(`counts of ${clientId}: profiles kept changing while they were read`);
  }

  /** One page into the fresh counts; profiles read too early are read again a few times. */
  private async submit(
    clientId: string,
    token: string,
    cursor: number,
    profiles: Profile[],
  ): Promise<'done' | 'superseded'> {
    let items = profiles.map(itemOf);
    for (const wait of [0, ...RETRY_DELAYS_MS.slice(0, 4)]) {
      if (wait) await new Promise((resolve) => setTimeout(resolve, wait));
      const late = await this.countStore.rebuildPage(clientId, token, cursor, items);
      if (late === 'superseded') return 'superseded';
      if (!late.length) return 'done';
      const again = await Promise.all(late.map((id) => this.source.one(clientId, id)));
      items = again.map((profile, k) => itemOf(profile ?? absent(clientId, late[k])));
    }
    // Still saved ahead of their read: the end of the rebuild reads them again.
    return 'done';
  }
}

function itemOf(profile: Profile): RebuildItem {
  return {
    profileId: profile.profileId,
    appliedSeq: profile.appliedSeq,
    counts: Object.fromEntries(reportSummary(profile)),
  };
}

/** An id with no document (a profile the import fast path removed): it counts for nothing. */
function absent(clientId: string, profileId: number): Profile {
  return { profileId, clientId, appliedSeq: 0, state: 'pending' } as Profile;
}
