import { Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import {
  CreateImportedProfilesCommand,
  type ImportedProfile,
  type ImportedProfileOutcome,
  type ImportedProfilesCreation,
  PrepareImportedProfilesCommand,
  type PreparedImportedProfiles,
} from '../apply/import/create-imported-profiles.command';
import type { ImportRecordRef } from '../domain/import-marks';
import type { ImportFlags } from '../domain/profile-write.schema';
import type { CallerScope } from '../domain/profile-view';
import type { ProfileDto } from '../wire/profile.dto';
import { alternateIdKey } from '../domain/element-rules';
import { AlternateIdClaimRepository } from '../persistence/alternate-id-claim.repository';
import { ProfileRepository } from '../persistence/profile.repository';
import type { AlternateIdPair } from '../persistence/alternate-id-claims.service';
import { type ImportCreateOptions, ProfileUpserts } from '../intake/profile-upserts.service';

/** One record of a bulk import, to become a profile write. */
export interface ImportRecordWrite {
  clientId: string;
  /** The user who initiated the import, and their user-group scope. */
  userId: string;
  scope?: CallerScope;
  /** The import's match: the record's alternate id of the MatchValue type. */
  pair: AlternateIdPair;
  /** The record as staged (checked there as a profile body). */
  body: ProfileDto;
  operation: 'add' | 'delete';
  /** Collections a merge into a stored profile replaces whole (the Refresh* flags). */
  replace: string[];
  /** The import's other flags, checked against a stored profile. */
  flags: ImportFlags;
  record: ImportRecordRef;
}

/** What a record may touch (conflictKeys), and whether its pair had a holder. */
export interface ImportRecordKeys {
  keys: string[];
  held: boolean;
}

/**
 * The port through which a bulk import writes profiles (libs/bulk's worker): each record
 * is accepted exactly as the Data API accepts a POST by alternate id (an upsert) or a
 * delete of the profile holding the pair, in the bulk lane, carrying its import record so
 * that a record accepted twice around a crash is applied once (domain/import-marks.ts).
 * Refusals are the domain errors a request would get (InvalidInputError, NotFoundError,
 * PermissionDeniedError, ConflictError).
 */
@Injectable()
export class ProfileImportWrites {
  constructor(
    private readonly upserts: ProfileUpserts,
    private readonly claims: AlternateIdClaimRepository,
    private readonly profiles: ProfileRepository,
    private readonly commands: CommandBus,
  ) {}

  /**
   * What a record may touch, for an importer that accepts records concurrently: the
   * profile holding its match pair now (`profile:<id>`) and every active alternate id it
   * names (`alt:<type>|<value>`). Records sharing none of these keys touch different
   * profiles and claims, so accepting them in any order gives what record order gives;
   * records that share one must be accepted in record order. One claim read per record.
   */
  async conflictKeys(
    clientId: string,
    pair: AlternateIdPair,
    body: ProfileDto,
  ): Promise<ImportRecordKeys> {
    const keys = this.alternateIdKeys(pair, body);
    const holder = await this.claims.holder(clientId, pair.AlternateIdType, pair.AlternateId);
    if (holder !== null) keys.push(`profile:${holder}`);
    return { keys, held: holder !== null };
  }

  /**
   * The alternate id keys of conflictKeys alone, read from the record (no engine command):
   * enough to group the records that would create profiles, since a pair nobody holds
   * names no stored profile (createNew finds out which pairs are held).
   */
  alternateIdKeys(pair: AlternateIdPair, body: ProfileDto): string[] {
    const keys = [`alt:${alternateIdKey(pair.AlternateIdType, pair.AlternateId)}`];
    for (const other of body.AlternateIds ?? []) {
      if (other && other.IsActive !== false && typeof other.AlternateId === 'string')
        keys.push(`alt:${alternateIdKey(other.AlternateIdType, other.AlternateId)}`);
    }
    return keys;
  }

  /**
   * Ids for a batch's new profiles (records whose pair nobody held), reserved at once; the
   * caller saves them with its progress before createNew, so that a batch cut short by a
   * crash is resumed on the same ids (createNew with `resumed`).
   */
  reserveNewProfileIds(clientId: string, count: number): Promise<number[]> {
    return this.profiles.reserveNewProfileIds(clientId, count);
  }

  /**
   * Creates the batch's new profiles already applied, a few engine commands for them all
   * (the worker's CreateImportedProfilesHandler); per record, 'held' (its match pair has a
   * holder) or 'ordinary' (a check refused it, its id or another pair was taken meanwhile)
   * when it must be written through `write` instead. Records given here share no
   * alternate id. `creation`: a batch resumed after a crash, the instant it is built at
   * (saved with its ids), or the batch built ahead (prepareNew). Only in the worker.
   */
  createNew(
    importer: { clientId: string; userId: string; scope?: CallerScope },
    profiles: ImportedProfile[],
    creation: ImportedProfilesCreation = {},
  ): Promise<ImportedProfileOutcome[]> {
    return this.commands.execute(
      new CreateImportedProfilesCommand(
        importer.clientId,
        importer.userId,
        importer.scope,
        profiles,
        creation,
      ),
    );
  }

  /**
   * Builds a batch's new profiles for createNew ahead of it (the checks and the fold at
   * `now`, nothing stored), e.g. while the batch before is saved. Only in the worker.
   */
  prepareNew(
    importer: { clientId: string; userId: string; scope?: CallerScope },
    profiles: ImportedProfile[],
    now: Date,
  ): Promise<PreparedImportedProfiles> {
    return this.commands.execute(
      new PrepareImportedProfilesCommand(
        importer.clientId,
        importer.userId,
        importer.scope,
        profiles,
        now,
      ),
    );
  }

  /** `creates`: what the batch knows for the record's create (see ImportCreateOptions). */
  async write(
    record: ImportRecordWrite,
    creates: ImportCreateOptions = {},
  ): Promise<{ profileId: number; created: boolean }> {
    const options = { importRecord: record.record, background: true };
    // A bulk import's run, in the worker: no request, so no commit window.
    const input = { ...record, window: null };
    if (record.operation === 'delete') {
      const { profileId } = await this.upserts.deleteByAlternateId(input, record.pair, options);
      return { profileId, created: false };
    }
    const result = await this.upserts.byAlternateId(
      { ...input, body: record.body },
      record.pair,
      'upsert',
      { ...options, replace: record.replace, flags: record.flags },
      creates,
    );
    return { profileId: result.ProfileId, created: result.created };
  }
}
