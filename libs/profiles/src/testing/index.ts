/*
 * Unit-test fixtures of the profile aggregate: builders of stored profile data, of profiles,
 * of accepted writes and of history entries, and the views a caller reads them through.
 * They serve the specs of Profiles and of the rule modules (Consents, Preferences), which
 * import them as `@app/profiles/testing`. Never imported by production code.
 *
 * Every fixture is of one profile: profile 7 of client `c1`.
 */
import { historyEntryKey, profileKey, writeKey } from '../keys';
import type { Edited, ProfileData } from '../domain/profile-data.schema';
import { historyEntries } from '../domain/profile-history';
import type { HistoryCategory, ProfileHistory } from '../domain/profile-history.schema';
import { fieldOf } from '../domain/profile-shape';
import {
  applyProfileWrite,
  type WriteContext,
  type WriteMode,
} from '../domain/apply-profile-write';
import type { ProfileRules } from '../domain/profile-rules';
import type { PreferenceVocabulary, ProfileVocabulary } from '../domain/profile-vocabulary';
import { type CallerScope, normaliseScope, type ProfileView } from '../domain/profile-view';
import type { Profile } from '../domain/profile.schema';
import type { ProfileWrite, ProfileWriteKind } from '../domain/profile-write.schema';
import { HISTORY_CREATE_BODY } from './history-modules';

// The aggregate's types the module specs need and @app/profiles does not export.
export type { Profile, ProfileWrite };
export * from './history-modules';

export const CLIENT_ID = 'c1';
export const PROFILE_ID = 7;

/** When the fixtures' writes are accepted: the first write at T1, later ones at T2. */
export const T1 = '2026-01-01T00:00:00.000Z';
export const T2 = '2026-02-01T00:00:00.000Z';

/** Who writes, and when, in data built by storedData. */
export const STAMP: WriteContext = { at: T1, userId: 'alice' };

/** Every field optional, all the way down (arrays of partial elements). */
export type DeepPartial<T> = T extends (infer E)[]
  ? DeepPartial<E>[]
  : T extends object
    ? { [K in keyof T]?: DeepPartial<T[K]> }
    : T;

/**
 * Stored data as a case states it: only the fields the case is about, as an older or
 * sparser document reads back from the engine. The field names and value types are still
 * checked against ProfileData; only their presence is not.
 */
export function partialData(fields: DeepPartial<ProfileData>): ProfileData {
  return fields as ProfileData;
}

/** The stored data of an active customer with every list empty, stamped `edited`, then `fields`. */
export function emptyProfileData(edited: Edited, fields: Partial<ProfileData> = {}): ProfileData {
  return {
    IsActive: true,
    Edited: edited,
    CustomerType: 'Customer',
    PreserveConsents: true,
    PreservePreferences: true,
    Consents: [],
    CustomFields: [],
    Groups: [],
    ProfileTags: [],
    Addresses: [],
    Emails: [],
    PhoneNumbers: [],
    ProfilePreferences: [],
    AlternateIds: [],
    ...fields,
  };
}

/** A stored profile as a case states it (see partialData). */
export function partialProfile(fields: DeepPartial<Profile>): Profile {
  return fields as Profile;
}

/** The configuration a case needs, its other readers left out (they are not called). */
export function partialVocabulary(readers: Partial<ProfileVocabulary>): ProfileVocabulary {
  return readers as ProfileVocabulary;
}

/** The preference configuration of the specs: program 1, its Email filter 10, the Email channel. */
export const EMAIL_PROGRAM_VOCABULARY: PreferenceVocabulary = {
  program: (id) => (id === 1 ? { IsActive: true } : undefined),
  filter: (id) =>
    id === 10
      ? {
          ProgramId: 1,
          FilterId: 10,
          ChannelId: 'Email',
          IsActive: true,
          FrequencyIds: [],
          RequiredConsentTypes: [],
          RequiredAttributes: [],
        }
      : undefined,
  channel: (value) => (value.toLowerCase() === 'email' ? 'Email' : undefined),
};

/** Stored data as the worker builds it (normalised keys derived) from a create's body. */
export function storedData(body: Record<string, unknown>): ProfileData {
  return applyProfileWrite(undefined, { CustomerType: 'Customer', ...body }, 'overwrite', STAMP);
}

/**
 * A caller without a user group scope: everything visible, implied preferences left out
 * (the domain's FULL_VIEW includes them).
 */
export const UNSCOPED_VIEW: ProfileView = { implied: false };

/** A restricted user group's view: the listed names only, full access to both areas. */
export function scopedView(lists: Partial<CallerScope>): ProfileView {
  return {
    implied: false,
    scope: normaliseScope({ consents: 'write', preferences: 'write', ...lists }),
  };
}

/** An accepted write, still pending: the first one by alice, later ones by bob. */
export function historyWrite(seq: number, kind: ProfileWriteKind, at: string): ProfileWrite {
  return {
    _id: writeKey(CLIENT_ID, PROFILE_ID, seq),
    clientId: CLIENT_ID,
    profileId: PROFILE_ID,
    seq,
    kind,
    userId: seq === 1 ? 'alice' : 'bob',
    acceptedAt: new Date(at),
    status: 'pending',
    attempts: 0,
  };
}

/** The profile holding `data` (pending without any) once write `appliedSeq` is applied. */
export function profileAt(data: ProfileData | undefined, appliedSeq: number): Profile {
  return {
    _id: profileKey(CLIENT_ID, PROFILE_ID),
    clientId: CLIENT_ID,
    profileId: PROFILE_ID,
    state: data ? 'active' : 'pending',
    appliedSeq,
    data,
  };
}

/** A write applied and recorded: the profile after it, and its history entries. */
export interface RecordedWrite {
  after: Profile;
  entries: ProfileHistory[];
}

/**
 * Applies writes the way the worker does, recording their history by `rules`: write `seq`
 * (`body` in `mode`, accepted `at`) on the profile `before`.
 */
export function historyRecorder(rules: ProfileRules) {
  return (
    before: Profile,
    body: Record<string, unknown>,
    mode: WriteMode | 'create',
    seq: number,
    at: string,
  ): RecordedWrite => {
    const write = historyWrite(seq, mode, at);
    const data = applyProfileWrite(
      mode === 'create' ? undefined : before.data,
      body,
      mode === 'create' ? 'overwrite' : mode,
      { at, userId: write.userId },
    );
    // What the worker reads back: a stored (JSON) copy.
    const after = JSON.parse(JSON.stringify(profileAt(data, seq))) as Profile;
    return { after, entries: historyEntries(before, after, write, rules) };
  };
}

/**
 * A stored copy of `profile` spelling "nothing" as an older document may: its first profile
 * preference without the empty lists a merge writes back ([]), and with a null field.
 */
export function sparselyStored(profile: Profile): Profile {
  const stored = JSON.parse(JSON.stringify(profile)) as Profile;
  const preference = stored.data!.ProfilePreferences[0] as unknown as Record<string, unknown>;
  delete preference.ConsentAssociations;
  delete preference.PreferenceAttributes;
  preference.FrequencyId = null;
  return stored;
}

/**
 * What a merge restating HISTORY_CREATE_BODY's profile preference records on `after` stored
 * as an older document spells "nothing" (sparselyStored): none, where the rules see no change.
 */
export function restatedOnSparselyStored(
  record: ReturnType<typeof historyRecorder>,
  after: Profile,
): ProfileHistory[] {
  const body = { ProfilePreferences: HISTORY_CREATE_BODY.ProfilePreferences };
  return record(sparselyStored(after), body, 'merge', 2, T2).entries;
}

/** What each entry is, in order: category, list, container list and IsActive. */
export function historySummary(entries: ProfileHistory[]): unknown[][] {
  return entries.map((entry) => [
    entry.category,
    entry.list,
    entry.container?.list,
    fieldOf(entry.snapshot, 'IsActive'),
  ]);
}

/** A recorded history entry (by default the first of write 1, at T1), keyed by its seq and n. */
export function historyEntry(
  category: HistoryCategory,
  fields: Partial<ProfileHistory> = {},
): ProfileHistory {
  const { seq = 1, n = 0 } = fields;
  return {
    _id: historyEntryKey(CLIENT_ID, PROFILE_ID, seq, n),
    clientId: CLIENT_ID,
    profileId: PROFILE_ID,
    seq,
    n,
    category,
    modifiedAt: T1,
    snapshot: {},
    ...fields,
  };
}
