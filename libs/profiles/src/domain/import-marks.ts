import type { Profile } from './profile.schema';
import type { ImportRecordRef } from './profile-write.schema';

export type { ImportRecordRef };

/** The imports a profile remembers the last applied record of (the oldest go first). */
export const IMPORT_MARKS_KEPT = 8;

/**
 * True when the profile already holds this import record, or a later one of the same
 * import: a write accepted again after a worker died between its acceptance and the
 * import's saved progress. Applying it would apply the record twice.
 */
export function importRecordApplied(profile: Profile, ref: ImportRecordRef): boolean {
  const mark = profile.importMarks?.find((m) => m.accessToken === ref.accessToken);
  return mark !== undefined && mark.n >= ref.n;
}

/** The profile remembering `ref` as its import's last applied record. */
export function withImportMark(profile: Profile, ref: ImportRecordRef): Profile {
  const others = (profile.importMarks ?? []).filter((m) => m.accessToken !== ref.accessToken);
  const importMarks = [...others, { accessToken: ref.accessToken, n: ref.n }].slice(
    -IMPORT_MARKS_KEPT,
  );
  return { ...profile, importMarks };
}
