import type { Profile } from './profile.schema';

/** The body of an `erase` write (POST .../Profile/{profileId}/Erasure). */
export interface EraseWrite {
  ReasonCode: string;
  Note?: string;
}

/**
 * The document an erased profile is saved as: a tombstone that keeps its id (never handed
 * out again), its sequence numbers and its `profile.deleted` event, and nothing else. A
 * whitelist, so a field added to Profile later is dropped by an erasure unless named here.
 */
export function erasedProfile(profile: Profile): Profile {
  return {
    _id: profile._id,
    clientId: profile.clientId,
    profileId: profile.profileId,
    state: 'deleted',
    appliedSeq: profile.appliedSeq,
    historyPages: 0,
    ...(profile.eventLog ? { eventLog: profile.eventLog } : {}),
    ...(profile.importMarks ? { importMarks: profile.importMarks } : {}),
    ...(profile.createdAt ? { createdAt: profile.createdAt } : {}),
  };
}
