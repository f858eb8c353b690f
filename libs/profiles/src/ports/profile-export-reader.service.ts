import { Injectable } from '@nestjs/common';
import { type CallerScope, normaliseScope, type ProfileView } from '../domain/profile-view';
import type { ProfileDto } from '../wire/profile.dto';
import { toProfileDto } from '../wire/profile.mapper';
import { ProfileRepository } from '../persistence/profile.repository';

/** One exported profile: the row, and when its document was saved. */
export interface ExportedProfile {
  profileId: number;
  /** When the worker last saved the profile (the document's updatedAt). */
  savedAt: Date;
  /**
   * The profile in the GET shape as the exporter's user group sees it, implied preferences
   * included, and inactive (archived or removed) preferences marked `IsActive: false`.
   */
  profile: ProfileDto;
}

/** What one read of a range of profile ids found. */
export interface ExportBatch {
  /** The active profiles of the range, in profile id order (pending shells and tombstones left out). */
  profiles: ExportedProfile[];
  /** The next profile id to read. */
  next: number;
  /** true: an id past the client's last claimed id is missing, so no profile follows. */
  done: boolean;
}

/**
 * The port through which a bulk export reads a client's profiles (libs/bulk's worker):
 * profile ids `from`, `from + 1`, ... each by `_id` (ids are claimed densely from 1, so
 * no scan or filter is needed), every row one stored document as the worker saved it (a
 * profile document is replaced whole with its appliedSeq: a row is never half a write).
 */
@Injectable()
export class ProfileExportReader {
  constructor(private readonly profiles: ProfileRepository) {}

  /** Reads ids `from` to `from + count - 1`, stopping early at the end of the client's ids. */
  async read(
    clientId: string,
    from: number,
    count: number,
    scope: CallerScope | undefined,
  ): Promise<ExportBatch> {
    const view: ProfileView = { implied: true, archived: true, scope: normaliseScope(scope) };
    const page = await this.profiles.readIdRange(clientId, from, count);
    const profiles: ExportedProfile[] = [];
    for (const doc of page.profiles) {
      if (doc.state !== 'active' || !doc.data) continue;
      profiles.push({
        profileId: doc.profileId,
        savedAt: doc.updatedAt ?? doc.createdAt ?? new Date(0),
        profile: toProfileDto(doc.profileId, doc.data, false, view),
      });
    }
    return { profiles, next: page.next, done: page.done };
  }
}
