/*
 * Redis keys of the reports (under QUEUE_PREFIX), one family per client
 * (docs/reports.md, "Storage"), all with the client's hash tag (`rp:{<client>}`): every
 * script takes several of them together and names the day hashes from their prefix, so a
 * client's counts live in one slot (one node of a cluster; clients spread over all):
 *   rp:<client>:now        current counts (hash: counter key -> n)
 *   rp:<client>:day:<d>    the events of UTC day d (hash: daily key -> n)
 *   rp:<client>:seen       per profile id, the appliedSeq its current counts reached (hash)
 *   rp:<client>:told       per profile id, the appliedSeq its daily counts reached (hash)
 *   rp:<client>:meta       built (when the counts were last rebuilt), drift, and a rebuild's
 *                          token and cursor while one runs
 *   rp:<client>:rb:now, rb:seen, late   a rebuild's own counts and marks, swapped in at its end
 *   rp:<client>:rbq        "a rebuild is queued" (coalesces the worker's requests)
 */
export interface ReportKeys {
  now: string;
  seen: string;
  told: string;
  meta: string;
  rebuildNow: string;
  rebuildSeen: string;
  late: string;
  queued: string;
  /** The prefix of the day hashes: `<dayPrefix><YYYY-MM-DD>`. */
  dayPrefix: string;
}

/** The keys of a client's counts; `base`: `<prefix>:rp:{<client>}` (RedisService.tagged). */
export function reportKeys(base: string): ReportKeys {
  return {
    now: `${base}:now`,
    seen: `${base}:seen`,
    told: `${base}:told`,
    meta: `${base}:meta`,
    rebuildNow: `${base}:rb:now`,
    rebuildSeen: `${base}:rb:seen`,
    late: `${base}:late`,
    queued: `${base}:rbq`,
    dayPrefix: `${base}:day:`,
  };
}
