import { chainHistoryEntries } from '../../../domain/history-chain';
import { withHistoryRefs } from '../../../domain/history-refs';
import { profileBoundViolations } from '../../../domain/profile-bounds';
import { erasedProfile } from '../../../domain/profile-erasure';
import { nextEventLog } from '../../../domain/profile-event-log';
import { type ProfileEvent, profileEvents } from '../../../domain/profile-events';
import { describeWrite, type HistoryEntry } from '../../../domain/profile-history';
import type { ProfileRules } from '../../../domain/profile-rules';
import {
  PermanentWriteError,
  type PreparedMerge,
  transitionProfile,
  withCurrentProfileNames,
} from '../../../domain/profile-transition';
import { mergeEvent, mergeHistoryEntry } from '../../../domain/profile-merge-history';
import type { ProfileVocabulary } from '../../../domain/profile-vocabulary';
import type { ProfileWrite } from '../../../domain/profile-write.schema';
import type { Profile } from '../../../domain/profile.schema';
import { PROFILE_WIRE_FORMAT } from '../../../wire/profile-wire-format';

/** What folding a write needs besides the profile and the write: all of it read before. */
export interface FoldContext {
  vocabulary: ProfileVocabulary;
  rules: ProfileRules;
  /** The instant the pass runs (event log bounds, a refused write's failure time). */
  now: Date;
}

/** One write folded into the profile: the next state and what its save brings along. */
export interface FoldedWrite {
  write: ProfileWrite;
  /** The profile before the write, with its consents under their current names. */
  named: Profile;
  /** The profile after it (without its history page count: the history stage sets it). */
  next: Profile;
  /** Its history entries, linked into the profile's receipt chain. */
  entries: HistoryEntry[];
  events: ProfileEvent[];
  /** Writes whose stored events go with this one (the event log's bounds, a delete). */
  erasedEvents: number[];
}

/** One step of a pass: a write applied, or refused (recorded as failed, no history). */
export type PassStep =
  | { write: ProfileWrite; before: Profile; folded: FoldedWrite; failure?: undefined }
  | { write: ProfileWrite; before: Profile; failure: string; folded?: undefined };

/**
 * The pure part of applying one write (no I/O, deterministic for a given `now`): the
 * transition checked by the rules, the list bounds, the derived due time, the history
 * entries and their references and chain links, the events and the event log. Throws
 * PermanentWriteError when the write is refused. Applying a profile's writes one at a time
 * or in one pass folds them through this same function, in order, from the same state.
 */
export function foldWrite(
  profile: Profile,
  write: ProfileWrite,
  ctx: FoldContext,
  /** A merge step's preparation (merge/profile-merge-apply.service.ts). */
  merge?: PreparedMerge,
): FoldedWrite {
  const { vocabulary, rules } = ctx;
  // Consents stored under a consent type's former name take its current one first: the
  // write matches them, and history shows no change for a rename alone.
  const named = withCurrentProfileNames(profile, vocabulary);
  let next = transitionProfile(named, write, vocabulary, PROFILE_WIRE_FORMAT, rules, merge);
  refuseOverBounds(profile, next);
  // Derived from the data with every save: what the expiry job looks profiles up by.
  next.nextExpiryAt = rules.nextDue(next.data);
  const described = describeWrite(named, next, write, rules);
  // Which entry last changed each item (contact decisions name it): saved with the profile.
  next.historyRefs = withHistoryRefs(profile.historyRefs, next.data, described.entries);
  // Consent receipts: consent and preference entries join the profile's hash chain after
  // the head it holds (no read); a retry links them identically.
  // A merge's own entry comes after the changes it made, and joins the chain with the
  // absorbed profile's chain head (docs/profile-merge.md, "History and receipts").
  const absorbedBy = merge?.kind === 'absorb' && !merge.noop ? merge : undefined;
  const recorded = absorbedBy
    ? [...described.entries, mergeHistoryEntry(write, described.entries.length, absorbedBy)]
    : described.entries;
  const chain = chainHistoryEntries(profile.historyChainHead, recorded, rules.chainedCategories());
  if (chain.head) next.historyChainHead = chain.head;
  // A delete keeps only its own event (no personal data stays): the older ones go.
  const deletes = next.state === 'deleted' && profile.state !== 'deleted';
  const events = profileEvents(named, next, write, rules, described);
  if (absorbedBy) events.push(mergeEvent(write, absorbedBy, events.length));
  const { log, dropped } = nextEventLog(
    deletes ? undefined : profile.eventLog,
    write.seq,
    write.acceptedAt.getTime(),
    events.length > 0,
    ctx.now.getTime(),
  );
  next.eventLog = log;
  const erasedEvents = deletes
    ? [
        ...(profile.eventLog ?? []).map((entry) => entry.seq).filter((seq) => seq < write.seq),
        ...dropped,
      ]
    : dropped;
  // The erased tombstone keeps nothing but its ids, sequence numbers and event log.
  if (write.kind === 'erase') next = erasedProfile(next);
  return { write, named, next, entries: chain.entries, events, erasedEvents };
}

/** The profile with a refused write counted as handled, and its failure shown. */
export function skipWrite(
  profile: Profile,
  write: ProfileWrite,
  reason: string,
  at: Date,
): Profile {
  return { ...profile, appliedSeq: write.seq, lastFailure: { seq: write.seq, reason, at } };
}

/**
 * Whether a pass ends after this step: a write that deletes or erases the profile is the
 * last of its pass, so what follows it (claims released, records and history erased) runs
 * exactly as after a pass of that write alone.
 */
export function endsPass(step: PassStep): boolean {
  if (!step.folded) return false;
  return (
    step.write.kind === 'erase' ||
    (step.folded.next.state === 'deleted' && step.before.state !== 'deleted')
  );
}

/**
 * Folds writes in order through foldWrite alone, with no effect around them (the pure
 * fold of a pass, what the equivalence test compares with one write at a time), up to
 * the write that ends the pass (endsPass).
 */
export function foldAll(
  profile: Profile,
  writes: ProfileWrite[],
  ctx: FoldContext,
): { profile: Profile; steps: PassStep[] } {
  const steps: PassStep[] = [];
  let state = profile;
  for (const write of writes) {
    const before = state;
    try {
      const folded = foldWrite(before, write, ctx);
      steps.push({ write, before, folded });
      state = folded.next;
    } catch (error) {
      if (!(error instanceof PermanentWriteError)) throw error;
      steps.push({ write, before, failure: error.message });
      state = skipWrite(before, write, error.message, ctx.now);
    }
    if (endsPass(steps[steps.length - 1])) break;
  }
  return { profile: state, steps };
}

/**
 * A write whose result would break a list bound (a merge adding to a full list, a patch)
 * fails like a refused write. A profile already over a bound (stored before bounds
 * existed) is not locked by it.
 */
function refuseOverBounds(before: Profile, after: Profile): void {
  if (!after.data) return;
  const over = profileBoundViolations(after.data as never, { activeOnly: true });
  if (!over.length) return;
  if (before.data && profileBoundViolations(before.data as never, { activeOnly: true }).length)
    return;
  throw new PermanentWriteError(over.join('; '));
}
