import { applyPatchOperations, PatchRefusedError } from '@app/shared';
import { type ProfileView, writerView } from './profile-view';
import { renameGroup } from './group-rename';
import { type CurrentNames, withCurrentNames } from './current-names';
import { checkAgainstConfiguration } from './profile-configuration.rules';
import type { ProfileVocabulary } from './profile-vocabulary';
import { checkProfileInput } from './profile-input.rules';
import type { ProfileRules } from './profile-rules';
import { PermanentWriteError } from './permanent-write-error';
import { applyProfileWrite, type WriteContext } from './apply-profile-write';
import { hiddenFrom, scopeViolations } from './profile-scope.rules';
import {
  keepInactiveElements,
  keepUnnamedElements,
  orderPatchOperations,
  type ProfilePatchOperation,
} from './profile-patch';
import type { Profile } from './profile.schema';
import type { ProfileData } from './profile-data.schema';
import type { ProfileBody } from './profile-shape';
import { importRecordApplied, withImportMark } from './import-marks';
import type { ProfileWrite } from './profile-write.schema';
import { parseWriteBody } from './profile-write-body';
import type { ProfileWireFormat } from './profile-wire-format';

/**
 * The profile with every consent type its data names by a former name named by its current
 * one (see withCurrentNames); the profile itself when nothing is renamed.
 */
export function withCurrentProfileNames(profile: Profile, names: CurrentNames): Profile {
  if (!profile.data) return profile;
  const data = withCurrentNames(profile.data, names);
  return data === profile.data ? profile : { ...profile, data };
}

export { PermanentWriteError };

/**
 * What a merge step's write needs that only I/O can read (the survivor and its records, the
 * absorbed profile), decided before the fold by merge/profile-merge-apply.service.ts with
 * the pure steps of profile-merge-steps.ts.
 */
export type PreparedMerge =
  | { kind: 'merged-into'; survivor: number; noop: boolean }
  | { kind: 'absorb'; noop: true }
  | {
      kind: 'absorb';
      noop: false;
      /** The survivor's data after absorbing (absorbProfile). */
      data: ProfileData;
      absorbed: number[];
      /** What the merge's history entry records of the absorbed profile. */
      absorbedProfileId: number;
      absorbedHead: string | null;
      absorbedCreateDate: string | null;
    };

export type { ExpireWrite } from './profile-write-body';

/** How the refusal of a patch outside the writer's scope starts (the api answers 403). */
export const FORBIDDEN_PATCH = 'Forbidden:';

/**
 * The profile after one accepted write. Pure: the worker saves what this returns,
 * together with the write's sequence number. A create, merge or overwrite is checked
 * against the client's configuration as it is now and the values stored now, so the
 * custom field update rules are decided in write order.
 */
export function transitionProfile(
  profile: Profile,
  write: ProfileWrite,
  vocabulary: ProfileVocabulary,
  wireFormat: ProfileWireFormat,
  rules: ProfileRules,
  merge?: PreparedMerge,
): Profile {
  const ref = write.importRecord;
  // A bulk import record the profile already holds (accepted again after a worker died
  // before the import saved its progress): passed over, so no record applies twice.
  if (ref && importRecordApplied(profile, ref))
    return { ...profile, appliedSeq: write.seq, lastFailure: undefined };
  const next = transitionOnce(profile, write, vocabulary, wireFormat, rules, merge);
  return ref ? withImportMark(next, ref) : next;
}

/** The write's transition itself (transitionProfile's arguments), its import mark aside. */
function transitionOnce(
  ...[profile, write, vocabulary, wireFormat, rules, merge]: Parameters<typeof transitionProfile>
): Profile {
  const ctx: WriteContext = {
    at: write.acceptedAt.toISOString(),
    userId: write.userId,
    // A bulk import's record may state a confirmation made elsewhere (checked at its Stage).
    ...(write.importRecord ? { confirmationsCarried: true } : {}),
  };
  const parsed = parseWriteBody(write);
  if (parsed.kind === 'create' || parsed.kind === 'merge' || parsed.kind === 'overwrite') {
    // A body accepted before a rename of a consent type it names: the current name applies.
    parsed.body = withCurrentNames(parsed.body, vocabulary);
    const problems = checkAgainstConfiguration(
      parsed.body,
      vocabulary,
      rules,
      parsed.kind,
      profile.data,
    );
    // A bulk import's flags, against the profile as it is now (a prior consent may have
    // become one since the record was accepted).
    if (write.importFlags)
      problems.push(...rules.importProblems(parsed.body, profile.data, write.importFlags));
    if (problems.length) throw new PermanentWriteError(problems.join('; '));
  }
  const next: Profile = { ...profile, appliedSeq: write.seq, lastFailure: undefined };

  switch (parsed.kind) {
    case 'create':
      if (profile.state !== 'pending') throw new PermanentWriteError('The profile already exists');
      return {
        ...next,
        state: 'active',
        data: rules.derive(
          undefined,
          applyProfileWrite(undefined, parsed.body, 'overwrite', ctx),
          vocabulary,
          ctx,
        ),
      };
    case 'merge':
    case 'overwrite': {
      if (profile.state === 'deleted') throw new PermanentWriteError('The profile was deleted');
      if (!profile.data) throw new PermanentWriteError('The profile was never created');
      let data = applyProfileWrite(profile.data, parsed.body, parsed.kind, ctx, write.replace);
      if (parsed.kind === 'merge') {
        const view = writerView(write.scope);
        data = rules.afterMerge(data, parsed.body, ctx, (c, element) =>
          hiddenFrom(view, c, element),
        );
        // Collections replaced whole keep what their writer cannot see, as an overwrite does.
        if (write.replace?.length)
          data = keepUnnamedElements(profile.data, data, (collection, element) =>
            hiddenFrom(view, collection, element),
          );
      }
      if (parsed.kind === 'overwrite' && write.scope) {
        // An overwrite covers what its writer can see: the rest is kept as stored.
        const view = writerView(write.scope);
        data = keepUnnamedElements(profile.data, data, (collection, element) =>
          hiddenFrom(view, collection, element),
        );
      }
      return { ...next, data: rules.derive(profile.data, data, vocabulary, ctx) };
    }
    case 'remove-tag': {
      if (profile.state === 'deleted' || !profile.data) return next;
      const key = typeof parsed.body.Key === 'string' ? parsed.body.Key : '';
      const ProfileTags = profile.data.ProfileTags.filter((tag) => tag.Key !== key);
      const Edited = { ...profile.data.Edited, ModifiedDate: ctx.at, ModifiedBy: ctx.userId };
      return { ...next, data: { ...profile.data, ProfileTags, Edited } };
    }
    case 'rename-group':
      // A profile deleted, or no longer in the old group, is left as it is (no failure).
      if (profile.state === 'deleted' || !profile.data) return next;
      return { ...next, data: renameGroup(profile.data, parsed.body, ctx) };
    case 'patch': {
      if (profile.state === 'deleted') throw new PermanentWriteError('The profile was deleted');
      if (!profile.data) throw new PermanentWriteError('The profile was never created');
      const view = writerView(write.scope);
      // eslint-disable-next-line prefer-const -- patched takes current names below
      let { wire, patched } = patchedBody(profile, parsed.body.Operations, view, wireFormat);
      patched = withCurrentNames(patched, vocabulary);
      const problems = checkAgainstConfiguration(
        patched,
        vocabulary,
        rules,
        'overwrite',
        profile.data,
      );
      if (problems.length) throw new PermanentWriteError(problems.join('; '));
      const forbidden = scopeViolations(patched, view, wire);
      if (forbidden.length)
        throw new PermanentWriteError(`${FORBIDDEN_PATCH} ${forbidden.join('; ')}`);
      const data = keepInactiveElements(
        profile.data,
        applyProfileWrite(profile.data, patched, 'overwrite', ctx),
        (collection, element) => hiddenFrom(view, collection, element),
      );
      return { ...next, data: rules.derive(profile.data, data, vocabulary, ctx) };
    }
    case 'delete':
      if (profile.state === 'deleted') throw new PermanentWriteError('The profile was deleted');
      return { ...next, state: 'deleted', data: undefined };
    case 'erase':
      // A delete and more (docs/data-subject.md); a profile deleted meanwhile is erased too
      // (what is left of it outside its document goes; no failure).
      return { ...next, state: 'deleted', data: undefined };
    case 'expire':
      // A profile deleted meanwhile has nothing left to expire (no failure).
      if (profile.state !== 'active' || !profile.data) return next;
      return {
        ...next,
        data: rules.expire(profile.data, parsed.body.AsOf, ctx).data,
      };
    case 'merged-into':
      // Decided before the fold (applyMergedInto): the data is kept for the survivor.
      if (merge?.kind !== 'merged-into')
        throw new PermanentWriteError('The merge step was not prepared');
      return merge.noop ? next : { ...next, state: 'merged', mergedInto: merge.survivor };
    case 'absorb':
      if (merge?.kind !== 'absorb')
        throw new PermanentWriteError('The merge step was not prepared');
      if (merge.noop) return next;
      return {
        ...next,
        // The absorbed profile's consents keep their evidence (a confirmed grant is not held again).
        data: rules.derive(profile.data, merge.data, vocabulary, {
          ...ctx,
          confirmationsCarried: true,
        }),
        absorbed: merge.absorbed,
      };
    case 'rename-consent-type':
      // The renaming itself is withCurrentProfileNames, done before every transition: this
      // write only gives a profile no other write touches its turn to store the current name.
      if (profile.state === 'deleted' || !profile.data) return next;
      return { ...next, data: withCurrentNames(profile.data, vocabulary) };
    default: {
      // A write kind of a rule module (consents, preferences).
      const apply = rules.writeKind(write.kind);
      if (!apply)
        throw new PermanentWriteError(`No rule module applies writes of kind ${write.kind}`);
      const data = apply(profile, parsed.body, {
        ...ctx,
        vocabulary,
        view: writerView(write.scope),
      });
      return data === undefined ? next : { ...next, data };
    }
  }
}

/**
 * A PATCH applied to the profile as it is now: its wire shape (what GET shows its writer),
 * patched, then validated like a PUT body. The result is stored with overwrite semantics,
 * except that inactive elements and those outside the writer's scope, which the wire shape
 * leaves out, are kept.
 */
function patchedBody(
  profile: Profile,
  operations: ProfilePatchOperation[],
  view: ProfileView,
  wireFormat: ProfileWireFormat,
): { wire: ProfileBody; patched: ProfileBody } {
  const wire = wireFormat.render(profile.profileId, profile.data!, view);
  let patched: ProfileBody;
  try {
    // Spec rule 4 (replace before remove) decides the order they apply in.
    patched = applyPatchOperations(
      wireFormat.render(profile.profileId, profile.data!, view),
      orderPatchOperations(operations ?? []),
    );
  } catch (error) {
    if (error instanceof PatchRefusedError) throw new PermanentWriteError(error.message);
    throw error;
  }
  if (typeof patched !== 'object' || patched === null || Array.isArray(patched))
    throw new PermanentWriteError('The patched profile is not an object');
  const problems = wireFormat.validate(patched);
  problems.push(...checkProfileInput(patched, 'overwrite'));
  if (problems.length)
    throw new PermanentWriteError(`The patched profile is invalid: ${problems.join('; ')}`);
  return { wire, patched };
}
