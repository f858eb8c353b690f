import canonicalize from 'canonicalize';
import { createHash } from 'node:crypto';

/*
 * The consent-receipt hash chain of a profile's history (docs/receipts.md). The entries of
 * the chained categories (consents and preferences: a rule's `chained` flag), in (seq, n)
 * order, each carry `prevHash`, the previous chained entry's `hash` (null for the first),
 * and `hash`, the SHA-256 (lowercase hex) of the entry's canonical JSON (RFC 8785, the
 * `canonicalize` package) as stored, without `hash` itself: every other field is hashed,
 * `prevHash` included, and so whatever another part of the service stores on the entry
 * (a snapshot's hidden fields among them). The profile document keeps the last hash
 * (`historyChainHead`), saved with the write: appending reads nothing, and verification
 * finds an entry cut off the end. The scripts/verify-receipt.js CLI implements the same
 * rules in plain JavaScript; change both together.
 */

/** The fields of an entry the chain reads (a stored entry, or one parsed from an export). */
export interface ChainEntry {
  seq: number;
  n: number;
  category: string;
  prevHash?: string | null;
  hash?: string;
}

/** The hash function of the chain, as receipts and docs name it. */
export const CHAIN_HASH_ALGORITHM = 'SHA-256';

/** The text that is hashed: the entry's canonical JSON (RFC 8785) without `hash`. */
export function chainCanonicalText(entry: object): string {
  const { hash: _hash, ...content }: { hash?: unknown } = entry;
  const text = canonicalize(content);
  if (text === undefined) throw new Error('a history entry has no canonical form');
  return text;
}

/** The entry's content hash: SHA-256 (lowercase hex) of chainCanonicalText. */
export function historyEntryHash(entry: object): string {
  return createHash('sha256').update(chainCanonicalText(entry), 'utf8').digest('hex');
}

/** How receipts and verification name an entry: `<seq>.<n>`. */
export function historyEntryId(entry: { seq: number; n: number }): string {
  return `${entry.seq}.${entry.n}`;
}

/** (seq, n) order: the order entries were recorded in, and the chain's. */
export function compareChainOrder(a: ChainEntry, b: ChainEntry): number {
  return a.seq - b.seq || a.n - b.n;
}

/**
 * Links one write's entries (in their order) into the chain after `head`: each entry of a
 * chained category gets `prevHash` and `hash`, the others pass unchanged. Pure and
 * deterministic: a retried write, recorded after the same head, gets identical entries.
 * Returns new entries and the new head (the old one when nothing was chained).
 */
export function chainHistoryEntries<T extends ChainEntry>(
  head: string | null | undefined,
  entries: readonly T[],
  chainedCategories: readonly string[],
): { entries: T[]; head: string | undefined } {
  const chained = new Set(chainedCategories);
  let last = head ?? undefined;
  const linked = entries.map((entry) => {
    if (!chained.has(entry.category)) return entry;
    const { hash: _hash, ...content } = entry as T & { hash?: string };
    const withLink = { ...content, prevHash: last ?? null } as T;
    const hash = historyEntryHash(withLink);
    last = hash;
    return { ...withLink, hash };
  });
  return { entries: linked, head: last };
}

/** Why an entry fails verification. */
export type ChainFailureReason =
  /** The entry's content does not hash to its stored `hash` (its content was changed). */
  | 'content-hash-mismatch'
  /** `prevHash` is not the previous chained entry's hash (an entry removed, reordered, or a hash rewritten). */
  | 'broken-link'
  /** A chained-category entry after the chain's start without `hash` (its hash was stripped). */
  | 'missing-hash'
  /** The chain's last hash is not the one the profile saved (entries cut off the end or added). */
  | 'head-mismatch';

export interface ChainProblem {
  /** `<seq>.<n>`; null for a head mismatch of an empty chain. */
  entryId: string | null;
  reason: ChainFailureReason;
  detail: string;
}

export interface ChainReport {
  ok: boolean;
  /** Chained entries checked. */
  chained: number;
  /** Entries of the chained categories recorded before chaining began (no hash): not checked. */
  unchained: number;
  /** The hash of the last chained entry as stored; null when none. */
  head: string | null;
  problems: ChainProblem[];
}

/**
 * Recomputes the chain of a profile's entries (any order; sorted by (seq, n) here; entries
 * of other categories are skipped). Entries of the chained categories before the first
 * that carries a hash were recorded before chaining began: counted as unchained, not
 * checked. From the first hashed entry on, every entry of a chained category must carry a
 * hash equal to its content's, and a prevHash equal to the previous chained entry's stored
 * hash (null for the first). `expectedHead`: the profile's saved head (undefined: not
 * compared, as from an export without it; null: the profile has none).
 */
export function verifyHistoryChain(
  entries: readonly ChainEntry[],
  chainedCategories: readonly string[],
  expectedHead?: string | null,
): ChainReport {
  const chained = new Set(chainedCategories);
  const ordered = entries.filter((entry) => chained.has(entry.category)).sort(compareChainOrder);
  const problems: ChainProblem[] = [];
  let started = false;
  let unchained = 0;
  let checked = 0;
  let previous: string | null = null;
  let lastId: string | null = null;
  for (const entry of ordered) {
    const entryId = historyEntryId(entry);
    if (typeof entry.hash !== 'string') {
      if (!started && entry.prevHash === undefined) {
        unchained++;
        continue;
      }
      problems.push({
        entryId,
        reason: 'missing-hash',
        detail: started
          ? 'entry of a chained category without a hash after the chain began'
          : 'entry carries prevHash but no hash',
      });
      checked++;
      lastId = entryId;
      continue;
    }
    started = true;
    checked++;
    lastId = entryId;
    const actual = historyEntryHash(entry);
    if (actual !== entry.hash) {
      problems.push({
        entryId,
        reason: 'content-hash-mismatch',
        detail: `content hashes to ${actual}, the entry says ${entry.hash}`,
      });
    }
    const link = entry.prevHash ?? null;
    if (link !== previous) {
      problems.push({
        entryId,
        reason: 'broken-link',
        detail:
          previous === null
            ? `first chained entry has prevHash ${String(link)}, expected null`
            : `prevHash ${String(link)} is not the previous chained entry's hash ${previous}`,
      });
    }
    previous = entry.hash;
  }
  if (expectedHead !== undefined && (expectedHead ?? null) !== previous) {
    problems.push({
      entryId: lastId,
      reason: 'head-mismatch',
      detail: `the chain ends at ${String(previous)}, the profile saved ${String(expectedHead ?? null)}`,
    });
  }
  return { ok: !problems.length, chained: checked, unchained, head: previous, problems };
}
