import type { TenantKey } from '@app/shared';
import { checkAgainstConfiguration } from '../../domain/profile-configuration.rules';
import type { ProfileEvent } from '../../domain/profile-events';
import type { ProfileHistory } from '../../domain/profile-history.schema';
import { checkProfileInput } from '../../domain/profile-input.rules';
import type { ProfileRules } from '../../domain/profile-rules';
import { writeScopeViolations } from '../../domain/profile-scope.rules';
import type { CallerScope } from '../../domain/profile-view';
import type { ProfileVocabulary } from '../../domain/profile-vocabulary';
import type { ProfileWrite } from '../../domain/profile-write.schema';
import type { Profile } from '../../domain/profile.schema';
import { historyPageKey, profileKey, writeKey } from '../../keys';
import { profileBodyOf } from '../../wire/profile-body.mapper';
import { PROFILE_WIRE_FORMAT } from '../../wire/profile-wire-format';
import { HISTORY_PAGE_ENTRIES } from '../../persistence/profile-history.repository';
import { withPair } from '../../intake/profile-upserts.service';
import { type FoldedWrite, foldWrite } from '../apply-profile-writes/pipeline/fold';
import type { ImportedProfile, PreparedImportedProfiles } from './create-imported-profiles.command';

/** What the records of one batch share when they are built. */
export interface ImportBuildContext {
  clientId: string;
  userId: string;
  scope: CallerScope | undefined;
  vocabulary: ProfileVocabulary;
  now: Date;
}

/** A new profile as its create write leaves it, with what the save brings along. */
export interface BuiltProfile {
  index: number;
  shell: Profile;
  profile: Profile;
  write: ProfileWrite;
  pages: Array<{ _id: TenantKey; entries: ProfileHistory[] }>;
  /** Its create's events (profile.created and the added items), stored with the pages. */
  events: ProfileEvent[];
}

/**
 * The import fast path's fold stage: the profile the record's create write makes of an
 * empty shell, through the worker's own fold (ApplyPipeline's stage 2: checks, bounds, due
 * time, history entries and references, the receipt chain, the events), with its history
 * laid out in pages; null when a check refuses the record (the ordinary path then refuses
 * it with the request's message). Pure.
 */
export function buildImportedProfile(
  { clientId, userId, scope, vocabulary, now }: ImportBuildContext,
  imported: ImportedProfile,
  index: number,
  rules: ProfileRules,
): BuiltProfile | null {
  const { profileId } = imported;
  const input = profileBodyOf(withPair(imported.body, imported.pair));
  if (
    checkProfileInput(input, 'create').length ||
    checkAgainstConfiguration(input, vocabulary, rules, 'create').length ||
    writeScopeViolations(input, scope, PROFILE_WIRE_FORMAT).length
  ) {
    return null;
  }
  const shell = shellOf(clientId, profileId, now);
  const write: ProfileWrite = {
    _id: writeKey(clientId, profileId, 1),
    clientId,
    profileId,
    seq: 1,
    kind: 'create',
    body: JSON.stringify(input),
    userId,
    ...(scope ? { scope } : {}),
    importRecord: imported.record,
    acceptedAt: now,
    status: 'pending',
    attempts: 0,
  };
  let folded: FoldedWrite;
  try {
    folded = foldWrite(shell, write, { vocabulary, rules, now });
  } catch {
    return null; // a write the worker would refuse: the ordinary path records it
  }
  const { entries, events } = folded;
  const pages: BuiltProfile['pages'] = [];
  for (let at = 0; at < entries.length; at += HISTORY_PAGE_ENTRIES) {
    pages.push({
      _id: historyPageKey(clientId, profileId, pages.length),
      entries: entries.slice(at, at + HISTORY_PAGE_ENTRIES),
    });
  }
  // A create without events keeps no event log (the fold's is then empty).
  const { eventLog, ...rest } = folded.next;
  const profile: Profile = {
    ...rest,
    historyPages: pages.length,
    ...(pages.length
      ? { historyTail: { seq: rest.appliedSeq, entries: pages[pages.length - 1].entries.length } }
      : {}),
    ...(events.length ? { eventLog } : {}),
    createdAt: now,
    updatedAt: now,
  };
  return { index, shell, profile, write, pages, events };
}

function shellOf(clientId: string, profileId: number, createdAt: Date): Profile {
  return {
    _id: profileKey(clientId, profileId),
    clientId,
    profileId,
    state: 'pending',
    appliedSeq: 0,
    createdAt,
    updatedAt: createdAt,
  };
}

/** Records built between two turns of the event loop while a batch is built ahead. */
const BUILD_SLICE = 50;

/**
 * The batch's profiles built (buildImportedProfile for each record, in order), a slice at a
 * time with the event loop turning between slices, so that the saves of a batch before it
 * go on meanwhile (PrepareImportedProfilesCommand).
 */
export async function buildAhead(
  context: ImportBuildContext,
  profiles: ImportedProfile[],
  rules: ProfileRules,
): Promise<PreparedImportedProfiles> {
  const built: { profileId: number; profile: BuiltProfile | null }[] = [];
  for (let from = 0; from < profiles.length; from += BUILD_SLICE) {
    if (from > 0) await new Promise((resolve) => setImmediate(resolve));
    for (let index = from; index < Math.min(profiles.length, from + BUILD_SLICE); index++) {
      built.push({
        profileId: profiles[index].profileId,
        profile: buildImportedProfile(context, profiles[index], index, rules),
      });
    }
  }
  return { now: context.now, built, vocabulary: context.vocabulary };
}

/**
 * What `prepared` built for `profiles`, when it was built for exactly these records under
 * these ids (else undefined: the caller builds them itself).
 */
export function preparedFor(
  prepared: PreparedImportedProfiles | undefined,
  profiles: ImportedProfile[],
): { now: Date; vocabulary: ProfileVocabulary; built: (BuiltProfile | null)[] } | undefined {
  if (!prepared || prepared.built.length !== profiles.length) return undefined;
  if (prepared.built.some(({ profileId }, k) => profileId !== profiles[k].profileId))
    return undefined;
  return {
    now: prepared.now,
    vocabulary: prepared.vocabulary as ProfileVocabulary,
    built: prepared.built.map(({ profile }) => profile as BuiltProfile | null),
  };
}
