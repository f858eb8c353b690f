import { validateProfileBody } from '../dto/validate-profile-body';
import { toProfileDto } from '../mapping/profile.mapper';
import { checkAgainstConfiguration, type ProfileVocabulary } from './profile-configuration.rules';
import { checkProfileInput } from './profile-input.rules';
import { applyProfileWrite } from './profile-merge';
import {
  applyPatchOperations,
  keepInactiveElements,
  PatchRefusedError,
  type ProfilePatchOperation,
} from './profile-patch';
import type { Profile } from './profile.schema';
import type { ProfileWrite } from './profile-write.schema';

/** A write that can never apply (the same input would fail again): recorded, not retried. */
export class PermanentWriteError extends Error {}

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
): Profile {
  const ctx = { at: write.acceptedAt.toISOString(), userId: write.userId };
  const body = write.body ? (JSON.parse(write.body) as Record<string, unknown>) : {};
  if (write.kind === 'create' || write.kind === 'merge' || write.kind === 'overwrite') {
    const problems = checkAgainstConfiguration(body, vocabulary, write.kind, profile.data);
    if (problems.length) throw new PermanentWriteError(problems.join('; '));
  }
  const next: Profile = { ...profile, appliedSeq: write.seq, lastFailure: undefined };

  switch (write.kind) {
    case 'create':
      if (profile.state !== 'pending') throw new PermanentWriteError('The profile already exists');
      return {
        ...next,
        state: 'active',
        data: applyProfileWrite(undefined, body, 'overwrite', ctx),
      };
    case 'merge':
    case 'overwrite':
      if (profile.state === 'deleted') throw new PermanentWriteError('The profile was deleted');
      if (!profile.data) throw new PermanentWriteError('The profile was never created');
      return { ...next, data: applyProfileWrite(profile.data, body, write.kind, ctx) };
    case 'remove-tag': {
      if (profile.state === 'deleted' || !profile.data) return next;
      const key = typeof body.Key === 'string' ? body.Key : '';
      const ProfileTags = profile.data.ProfileTags.filter((tag) => tag.Key !== key);
      const Edited = { ...profile.data.Edited, ModifiedDate: ctx.at, ModifiedBy: ctx.userId };
      return { ...next, data: { ...profile.data, ProfileTags, Edited } };
    }
    case 'patch': {
      if (profile.state === 'deleted') throw new PermanentWriteError('The profile was deleted');
      if (!profile.data) throw new PermanentWriteError('The profile was never created');
      const patched = patchedBody(profile, body.Operations as ProfilePatchOperation[]);
      const problems = checkAgainstConfiguration(patched, vocabulary, 'overwrite', profile.data);
      if (problems.length) throw new PermanentWriteError(problems.join('; '));
      const data = applyProfileWrite(profile.data, patched, 'overwrite', ctx);
      return { ...next, data: keepInactiveElements(profile.data, data) };
    }
    case 'delete':
      if (profile.state === 'deleted') throw new PermanentWriteError('The profile was deleted');
      return { ...next, state: 'deleted', data: undefined };
  }
}

/**
 * A PATCH applied to the profile as it is now: its wire shape (what GET shows), patched,
 * then validated like a PUT body. The result is stored with overwrite semantics, except
 * that inactive elements, which the wire shape leaves out, are kept.
 */
function patchedBody(
  profile: Profile,
  operations: ProfilePatchOperation[],
): Record<string, unknown> {
  const wire = JSON.parse(
    JSON.stringify(toProfileDto(profile.profileId, profile.data!, false)),
  ) as Record<string, unknown>;
  let patched: Record<string, unknown>;
  try {
    patched = applyPatchOperations(wire, operations ?? []);
  } catch (error) {
    if (error instanceof PatchRefusedError) throw new PermanentWriteError(error.message);
    throw error;
  }
  if (typeof patched !== 'object' || patched === null || Array.isArray(patched))
    throw new PermanentWriteError('The patched profile is not an object');
  const problems = validateProfileBody(patched);
  problems.push(...checkProfileInput(patched, 'overwrite'));
  if (problems.length)
    throw new PermanentWriteError(`The patched profile is invalid: ${problems.join('; ')}`);
  return patched;
}
