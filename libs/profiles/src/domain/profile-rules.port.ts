import type { Filter } from 'mongodb';
import type { DataRule } from './data-rule';
import type { ElementRule } from './element-rules';
import type {
  ContactList,
  HistoryContainer,
  HistorySnapshot,
  ProfileHistory,
} from './profile-history.schema';
import type { ImportFlags } from './profile-write.schema';
import type { ProfileData, StoredConsent, StoredPreference } from './profile-data.schema';
import type { ContactElement, ElementBody, ProfileBody } from './profile-shape';
import type { WriteContext } from './apply-profile-write';
import type { ProfileView } from './profile-view';
import type { ProfileVocabulary } from './profile-vocabulary';
import type { Profile } from './profile.schema';

/**
 * A create, merge or overwrite body (or a patched profile) as the rules read it: the stored
 * shape with every field optional or null (see profile-shape.ts).
 */
export type { ProfileBody } from './profile-shape';

/** A key query of the search key index: the profiles holding a key of every group. */
export type KeyQuery = string[][];

/** One condition of a candidate query (a MongoDB filter on the stored profile document). */
export type SearchCondition = Filter<Profile>;

/** Criteria of a profile search; a rule module's searches have kinds of their own. */
export interface SearchCriteriaOf<Kind extends string = string> {
  readonly kind: Kind;
}

/**
 * A profile search a rule module owns (its route lives in the module, which dispatches
 * SearchProfilesQuery; Profiles runs it): candidates from the search key index (or, while
 * the index is being built, from `candidateConditions`), each checked by `matches`.
 */
export interface ProfileSearchRule<C extends SearchCriteriaOf = SearchCriteriaOf> {
  readonly kind: C['kind'];
  /**
   * The criteria against the configuration (names resolved, say), or undefined when
   * nothing can match (an empty answer, no read).
   */
  resolve?(criteria: C, vocabulary: ProfileVocabulary): C | undefined;
  /** The key lookup: a superset of the matches, over keys the module's `searchKeys` adds. */
  keyQuery(criteria: C): KeyQuery;
  /** The candidate query's conditions (a superset of the matches; never empty). */
  candidateConditions(criteria: C): SearchCondition[];
  /** Whether an active profile matches, on active elements the view may see only. */
  matches(data: ProfileData, criteria: C, view: ProfileView): boolean;
  /** The data a matched profile is answered with (default: as stored). */
  answer?(data: ProfileData, criteria: C, view: ProfileView): ProfileData;
}

/** One changed item of a write, as a rule module records it in the profile's history. */
export interface HistoryChange {
  /** The module's history category (its routes read one category). */
  category: string;
  /** The profile list holding the item (ProfilePreferences, EmailPreferences, Consents...). */
  list: string;
  /** The contact element holding it; absent: the profile's own. */
  container?: HistoryContainer;
  /** A normalised value the category's reads may narrow by (a preference's FilterId). */
  filterKey?: string;
  snapshot: HistorySnapshot;
}

/** A contact element before and after a write, and the fields naming it on the wire. */
export interface ContactPair {
  list: ContactList;
  /** The contact's preference list (EmailPreferences, PhonePreferences, AddressPreferences). */
  preferences: 'EmailPreferences' | 'PhonePreferences' | 'AddressPreferences';
  container: HistoryContainer;
  before?: ContactElement;
  after?: ContactElement;
}

/** What Profiles hands a module to find what one write changed of its part. */
export interface HistoryDiff {
  /**
   * Items of a list whose content changed (new, changed, deactivated) as they are after
   * the write, and items the write removed that were active, as their last state made
   * inactive. Nested lists of the rule are left to their own entries unless `whole`.
   */
  changedItems<E extends ElementBody & HistorySnapshot>(
    before: readonly E[] | undefined,
    after: readonly E[] | undefined,
    rule: ElementRule,
    options?: { whole?: boolean },
  ): E[];
  /** The contact elements of the profile before and after, paired by key. */
  readonly contacts: readonly ContactPair[];
}

/**
 * The history of a rule module's part of the profile: what a write changed of it (one
 * entry per item), who may see an entry, and how it is shown.
 */
export interface ProfileHistoryRule {
  readonly category: string;
  changes(before: ProfileData | undefined, after: ProfileData, diff: HistoryDiff): HistoryChange[];
  /** Whether the caller's view may see the entry (its scope). */
  canSee(view: ProfileView, entry: ProfileHistory): boolean;
  /**
   * The entry's part of the Profile-shaped answer (the item in its list, inside its
   * contact element when it has one); ProfileId and AlternateIds are added by Profiles.
   */
  toEntry(entry: ProfileHistory, view: ProfileView): object;
  /** The order of the category's entries (default: modified date, then write). */
  compare?(a: ProfileHistory, b: ProfileHistory): number;
  /**
   * The category's entries join the profile's hash chain (consent receipts: each carries
   * prevHash and hash; domain/history-chain.ts, docs/receipts.md).
   */
  readonly chained?: boolean;
}

/** What a write kind of a rule module is given besides the stored profile and the body. */
export interface RuleWriteContext extends WriteContext {
  vocabulary: ProfileVocabulary;
  /** What the writer may see (their user group's scope). */
  view: ProfileView;
}

/**
 * How a write kind a rule module owns changes the profile: the new data, or undefined to
 * leave the profile as it is (applied, nothing changed). Throws PermanentWriteError to
 * refuse the write (recorded as failed, never retried). The body is the JSON object the
 * module queued for that kind (its own write interface, not a profile body).
 */
export type RuleWriteKind = (
  profile: Profile,
  body: object,
  ctx: RuleWriteContext,
) => ProfileData | undefined;

/**
 * Which of the survivor's and the absorbed profile's elements of one key a profile merge
 * keeps (either side may lack one; undefined keeps none). Pure: time is in the elements.
 */
export type MergeDecision<E> = (survivor: E | undefined, absorbed: E | undefined) => E | undefined;

/**
 * A rule module's rows of the merge's precedence tables (docs/profile-merge.md): the module
 * that owns a list decides which element a merge keeps; Profiles only pairs them by key.
 */
export interface MergePrecedence {
  /** The K rows: the consent kept of two of the same type in the same container. */
  consent?: MergeDecision<StoredConsent>;
  /**
   * The P rows: the preference kept of two of the same key. `marked` tells a preference
   * that some module's mark keeps whatever the dates (P9).
   */
  preference?(
    survivor: StoredPreference | undefined,
    absorbed: StoredPreference | undefined,
    marked: (preference: StoredPreference) => boolean,
  ): StoredPreference | undefined;
  /** Whether a preference is a mark this module's jobs wrote (do-not-contact: P9). */
  marksPreference?(preference: StoredPreference): boolean;
}

/**
 * The port through which a rule module (Consents, Preferences) plugs into the profile write
 * pipeline. Profiles owns the aggregate, the ordered writes and their storage; a module
 * owns the meaning of its part of the profile. Every member is pure and deterministic:
 * time comes from the write, so a retried write gives the same result.
 */
export interface ProfileRuleModule {
  readonly name: string;
  /**
   * Problems of a create, merge or overwrite body (or a patched profile) against the
   * configuration and the stored profile: one message each, naming the field by its path
   * and the value. Checked at acceptance (400) and again by the worker.
   */
  problems?(
    body: ProfileBody,
    vocabulary: ProfileVocabulary,
    kind: 'create' | 'merge' | 'overwrite',
    current?: ProfileData,
  ): string[];
  /**
   * Problems of a bulk import's record merged into a stored profile, under the import's
   * flags (checked at acceptance; the record becomes an exception of the import).
   */
  importProblems?(
    body: ProfileBody,
    current: ProfileData | undefined,
    flags: ImportFlags,
  ): string[];
  /**
   * Problems of what only a bulk import's record may state (a consent's Confirmation made
   * elsewhere), checked when the record is staged, `now` in ms (the record becomes an
   * exception of the import). A Data API write never states these: they are read-only there.
   */
  importRecordProblems?(body: ProfileBody, now: number): string[];
  /** Derives the stored values of the module's part after a write merged. */
  derive?: DataRule;
  /**
   * After a merge: what the body's flags drop (PreservePreferences, PreserveConsents).
   * `hidden` tells the elements outside the writer's scope, which are left alone.
   */
  afterMerge?(
    data: ProfileData,
    body: ProfileBody,
    ctx: WriteContext,
    hidden: (collection: string, element: ElementBody) => boolean,
  ): ProfileData;
  /**
   * Scheduled expiry: the data with what is due as of `asOf` (ms) marked expired, and how
   * many items were marked; the same object when nothing was due.
   */
  expire?(data: ProfileData, asOf: number, ctx: WriteContext): { data: ProfileData; count: number };
  /** The earliest moment (ms) something of the module's part becomes due, or null. */
  nextDue?(data: ProfileData): number | null;
  /** The system write kinds the module queues, and how each applies. */
  writeKinds?: Partial<Record<string, RuleWriteKind>>;
  /**
   * The search keys of the module's part of a profile, from every element, active or not
   * (the index needs a superset; the exact check is `matches`).
   */
  searchKeys?(data: ProfileData): Iterable<string>;
  /** The profile searches the module owns. */
  searches?: readonly ProfileSearchRule[];
  /** The history categories the module owns. */
  history?: readonly ProfileHistoryRule[];
  /** The module's rows of a profile merge's precedence tables. */
  mergePrecedence?: MergePrecedence;
}
