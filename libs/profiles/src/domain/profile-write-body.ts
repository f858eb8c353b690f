import type { RenameGroupWrite } from './group-rename';
import { PermanentWriteError } from './permanent-write-error';
import type { EraseWrite } from './profile-erasure';
import type { AbsorbWrite, MergedIntoWrite } from './profile-merge-record.schema';
import type { ProfilePatchOperation } from './profile-patch';
import type { ProfileBody } from './profile-shape';
import type { ProfileWrite, ProfileWriteKind } from './profile-write.schema';

/*
 * A stored write's body, typed by its kind. The body was checked when the write was
 * accepted (the request's DTO, or the job that queued it), so its kind says its shape:
 * parseWriteBody is the one place the stored JSON text becomes typed data.
 */

/** Body of an `expire` write: the time (ISO 8601) the expiry job ran as. */
export interface ExpireWrite {
  AsOf: string;
}

/** Body of a `patch` write: the JSON Patch operations, applied when the write's turn comes. */
export interface PatchWrite {
  Operations: ProfilePatchOperation[];
}

/** Body of a `remove-tag` write (DELETE /{clientId}/Tags/{tagName}): the tag's key. */
export interface RemoveTagWrite {
  Key: string;
}

/** The write kinds a rule module owns (Consents, Preferences): their bodies are theirs. */
export type RuleModuleWriteKind =
  | 'archive-preferences'
  | 'dnc-apply'
  | 'consent-version-pending'
  | 'consent-confirm'
  | 'consent-confirmation-expire'
  | 'preference-confirm'
  | 'preference-confirmation-expire';

/** The body of each write kind. */
export type ParsedWrite =
  | { kind: 'create'; body: ProfileBody }
  | { kind: 'merge'; body: ProfileBody }
  | { kind: 'overwrite'; body: ProfileBody }
  | { kind: 'patch'; body: PatchWrite }
  | { kind: 'delete'; body: object }
  | { kind: 'erase'; body: Partial<EraseWrite> }
  | { kind: 'remove-tag'; body: RemoveTagWrite }
  | { kind: 'rename-group'; body: RenameGroupWrite }
  | { kind: 'expire'; body: ExpireWrite }
  | { kind: 'rename-consent-type'; body: object }
  | { kind: 'merged-into'; body: MergedIntoWrite }
  | { kind: 'absorb'; body: AbsorbWrite }
  | { kind: RuleModuleWriteKind; body: object };

/** The body type of one write kind. */
export type WriteBodyOf<K extends ProfileWriteKind> = Extract<ParsedWrite, { kind: K }>['body'];

/**
 * The write's body typed by its kind (an absent body is an empty object). Throws
 * PermanentWriteError when the stored text is no JSON object (never retried).
 */
export function parseWriteBody(write: Pick<ProfileWrite, 'kind' | 'body'>): ParsedWrite {
  // Every kind has its body type here (a kind added without one fails to compile).
  const kind: ParsedWrite['kind'] = write.kind;
  const json: unknown = write.body ? JSON.parse(write.body) : {};
  if (typeof json !== 'object' || json === null || Array.isArray(json))
    throw new PermanentWriteError(`The body of the ${kind} write is not a JSON object`);
  return { kind, body: json } as ParsedWrite;
}

/** The body of a write known to be of `kind` (a merge step's, an erasure's). */
export function writeBodyOf<K extends ProfileWriteKind>(
  write: Pick<ProfileWrite, 'kind' | 'body'>,
  kind: K,
): WriteBodyOf<K> {
  const parsed = parseWriteBody(write);
  if (parsed.kind !== kind)
    throw new PermanentWriteError(`A ${parsed.kind} write was read as a ${kind} write`);
  return parsed.body as WriteBodyOf<K>;
}
