import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { NotFoundError } from '@app/shared';
import type { ProfileView } from '../../domain/profile-view';
import type { Profile } from '../../domain/profile.schema';
import type { ProfileWrite } from '../../domain/profile-write.schema';
import type { ExportedWriteDto } from '../data-subject.dto';
import { toPendingProfileDto, toProfileDto, UPDATE_STATUS } from '../../wire/profile.mapper';
import { ProfileSettings } from '../../profile-settings';
import { ProfileEventRepository } from '../../persistence/profile-event.repository';
import { ProfileHistoryRepository } from '../../persistence/profile-history.repository';
import { ProfileRepository } from '../../persistence/profile.repository';
import { ProfileWriteRepository, statusOf } from '../../persistence/profile-write.repository';
import { ExistingProfiles } from '../../persistence/existing-profiles.service';
import { ExportProfileQuery, type ProfileExportStream } from './export-profile.query';

/** Pending writes exported at most (each one `_id` lookup); more wait behind them. */
const PENDING_EXPORTED = 500;

/** Everything visible, archived and implied preferences included: an export is whole. */
const EXPORT_VIEW: ProfileView = { implied: true, archived: true };

/**
 * A data-subject export (docs/data-subject.md): the profile document read once by `_id`,
 * then, as the answer is sent, its history pages one at a time (the pages it counts, each
 * by `_id`, entries up to its appliedSeq), its events (one `_id` read per write its event
 * log keeps, at most EVENT_LOG_MAX) and its kept write records (by `_id` from its
 * appliedSeq). The cost follows this profile's own data, never a collection, and only a
 * page or an events document is held in memory at a time.
 */
@QueryHandler(ExportProfileQuery)
export class ExportProfileHandler implements IQueryHandler<ExportProfileQuery> {
  constructor(
    private readonly existing: ExistingProfiles,
    private readonly profiles: ProfileRepository,
    private readonly history: ProfileHistoryRepository,
    private readonly events: ProfileEventRepository,
    private readonly writes: ProfileWriteRepository,
    private readonly settings: ProfileSettings,
  ) {}

  async execute({ clientId, profileId }: ExportProfileQuery): Promise<ProfileExportStream> {
    await this.existing.get(clientId, profileId);
    const profile = await this.profiles.findOne(clientId, profileId);
    if (!profile || profile.state === 'deleted')
      throw new NotFoundError(`Profile ${profileId} was not found`);
    const exportedAt = new Date();
    return {
      fileName: `profile-${profileId}-${exportedAt.toISOString().replace(/[:.]/g, '-')}.json`,
      chunks: this.chunks(profile, exportedAt),
    };
  }

  private async *chunks(profile: Profile, exportedAt: Date): AsyncGenerator<string> {
    const { clientId, profileId, appliedSeq } = profile;
    const pending = await this.writes.pendingAfter(
      clientId,
      profileId,
      appliedSeq,
      PENDING_EXPORTED,
    );
    const shown = profile.data
      ? toProfileDto(profileId, profile.data, pending.length > 0, EXPORT_VIEW)
      : toPendingProfileDto(profileId);
    const head = {
      ClientId: clientId,
      ProfileId: profileId,
      ExportedAt: exportedAt.toISOString(),
      AppliedSequence: appliedSeq,
      // The consent chain's last hash (docs/receipts.md): a verifier of History sees an
      // entry cut off its end.
      HistoryChainHead: profile.historyChainHead ?? null,
      Profile: shown,
      StoredData: profile.data ?? null,
    };
    const text = JSON.stringify(head);
    yield `${text.slice(0, -1)},"History":[`;
    yield* this.historyChunks(profile);

    yield '],"Events":[';
    let first = true;
    for (const { seq } of profile.eventLog ?? []) {
      if (seq > appliedSeq) continue;
      const events = await this.events.find(clientId, profileId, seq);
      if (!events.length) continue;
      yield (first ? '' : ',') + events.map((event) => JSON.stringify(event)).join(',');
      first = false;
    }

    const kept = await this.writes.listDownFrom(
      clientId,
      profileId,
      appliedSeq,
      this.settings.writeRecordsKept,
    );
    const writes = [...kept.reverse(), ...pending].map((write) => exportedWrite(write, appliedSeq));
    const imports = (profile.importMarks ?? []).map((mark) => ({
      AccessToken: mark.accessToken,
      RecordNumber: mark.n,
    }));
    yield `],"Writes":${JSON.stringify(writes)},"ImportRecords":${JSON.stringify(imports)},"Absorbed":[`;
    // The profiles it absorbed (docs/profile-merge.md): their history stays theirs.
    first = true;
    for (const absorbedId of profile.absorbed ?? []) {
      const absorbed = await this.profiles.findOne(clientId, absorbedId);
      if (absorbed?.state !== 'merged') continue;
      const head = { ProfileId: absorbedId, HistoryChainHead: absorbed.historyChainHead ?? null };
      yield `${first ? '' : ','}${JSON.stringify(head).slice(0, -1)},"History":[`;
      yield* this.historyChunks(absorbed);
      yield ']}';
      first = false;
    }
    yield ']}';
  }

  /** A profile's history pages, one at a time, as JSON entries separated by commas. */
  private async *historyChunks(profile: Profile): AsyncGenerator<string> {
    const { clientId, profileId, appliedSeq } = profile;
    let first = true;
    for (let page = 0; page < (profile.historyPages ?? 0); page++) {
      const entries = (await this.history.page(clientId, profileId, page))
        .filter((entry) => entry.seq <= appliedSeq)
        .sort((a, b) => a.seq - b.seq || a.n - b.n);
      if (!entries.length) continue;
      yield (first ? '' : ',') + entries.map((entry) => JSON.stringify(entry)).join(',');
      first = false;
    }
  }
}

function exportedWrite(write: ProfileWrite, appliedSeq: number): ExportedWriteDto {
  const status = statusOf(write, appliedSeq);
  return {
    Sequence: write.seq,
    Operation: write.kind,
    Status:
      status === 'failed'
        ? 'Failed'
        : status === 'applied'
          ? UPDATE_STATUS.complete
          : 'Pending Update',
    SubmittedUtcTime: new Date(write.acceptedAt).toISOString(),
    UserId: write.userId,
    ...(write.body ? { Body: JSON.parse(write.body) as Record<string, unknown> } : {}),
    ...(write.failureReason ? { FailureReason: write.failureReason } : {}),
  };
}
