import type { PcpClient, Schemas } from './client';

export interface WaitForWriteOptions {
  clientId: string;
  profileId: number;
  /**
   * The `SubmittedUtcTime` of the write's 202 answer: its record in `.../Updates` is the one
   * checked for a failure (default: the newest record).
   */
  submittedUtcTime?: string;
  /** Give up after this long (default 30 s). */
  timeoutMs?: number;
  /** Time between two reads (default 100 ms). */
  intervalMs?: number;
}

/** The worker refused the write (its record in `.../Updates` is Failed). */
export class WriteFailedError extends Error {
  constructor(readonly update: Schemas['ProfileUpdateDto']) {
    super(`write ${update.Sequence} (${update.Operation}) failed: ${update.FailureReason ?? ''}`);
    this.name = 'WriteFailedError';
  }
}

/** The write was not applied within the timeout. */
export class WriteTimeoutError extends Error {
  constructor(
    readonly profileId: number,
    readonly timeoutMs: number,
  ) {
    super(`the writes of profile ${profileId} were not applied within ${timeoutMs} ms`);
    this.name = 'WriteTimeoutError';
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Waits for the queued writes of a profile to be applied: reads `GET .../Profile/{id}`
 * until it answers `UpdateStatus: "Complete"` (no accepted write left unapplied), then reads
 * `GET .../Profile/{id}/Updates` and throws WriteFailedError when the write (the one
 * submitted at `submittedUtcTime`, else the newest) was refused by the worker. Answers the
 * profile as GET shows it then. A profile whose create failed answers 404 to GET: its
 * Updates are read on each 404, so the failure is reported rather than waited out.
 */
export async function waitForWrite(
  client: PcpClient,
  options: WaitForWriteOptions,
): Promise<Schemas['ProfileDto']> {
  const timeoutMs = options.timeoutMs ?? 30_000;
  const deadline = Date.now() + timeoutMs;
  const path = { clientId: options.clientId, profileId: options.profileId };
  const failedUpdate = async () => {
    const { data } = await client.GET('/Profiles/v4/{clientId}/Profile/{profileId}/Updates', {
      params: { path },
    });
    const updates = data?.Updates ?? [];
    const update =
      options.submittedUtcTime === undefined
        ? updates[0]
        : updates.find((entry) => entry.SubmittedUtcTime === options.submittedUtcTime);
    return update?.Status === 'Failed' ? update : undefined;
  };
  for (;;) {
    const { data, response } = await client.GET('/Profiles/v4/{clientId}/Profile/{profileId}', {
      params: { path },
    });
    if (data && data.UpdateStatus === 'Complete') {
      const failed = await failedUpdate();
      if (failed) throw new WriteFailedError(failed);
      return data;
    }
    if (response.status === 404) {
      const failed = await failedUpdate();
      if (failed) throw new WriteFailedError(failed);
    } else if (!data) {
      throw new Error(`GET profile ${options.profileId}: HTTP ${response.status}`);
    }
    if (Date.now() > deadline) throw new WriteTimeoutError(options.profileId, timeoutMs);
    await sleep(options.intervalMs ?? 100);
  }
}
