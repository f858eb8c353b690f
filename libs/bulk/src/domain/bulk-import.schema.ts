import type { TenantKey } from '@app/shared';
import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { Schema as MongooseSchema } from 'mongoose';
import type { CallerScope, ProfileDto } from '@app/profiles';
import type { BulkImportOperation, BulkImportState, BulkImportRefresh } from './bulk-import';

/**
 * Where a client's next access token is probed from. `_id` is the client id; the insert of
 * the import (`<clientId>|<token>`) decides, the hint only saves probing.
 */
@Schema({ collection: 'bulk_import_hints', versionKey: false })
export class BulkImportHint {
  @Prop({ type: String }) _id: TenantKey;
  @Prop({ required: true }) clientId: string;
  @Prop({ required: true }) last: number;
  /** The account's Initiates in the last 24 hours (the daily limit), at most the limit. */
  @Prop({ type: [Date], default: undefined }) initiated?: Date[];
}
export const BulkImportHintSchema = SchemaFactory.createForClass(BulkImportHint);

/**
 * One import of a client. `_id` is `<clientId>|<accessToken>`: inserting it claims the
 * token (int32 per client, from 1). Its counters are replaced whole by each stage (stages
 * of one import are serialized by a lease), after its chunks and exception pages are
 * written: a stage that dies halfway leaves chunks or pages past the counts, which the next
 * stage overwrites, and nothing a reader sees.
 */
@Schema({ collection: 'bulk_imports', versionKey: false })
export class BulkImport implements BulkImportState {
  @Prop({ type: String }) _id: TenantKey;
  @Prop({ required: true }) clientId: string;
  @Prop({ required: true }) accessToken: number;
  @Prop({ required: true }) name: string;
  @Prop({ required: true }) dataStageDuration: number;
  @Prop({ required: true }) matchCriteria: string;
  @Prop({ required: true }) matchValue: string;
  @Prop({ type: String, required: true }) operation: BulkImportOperation;
  @Prop({ required: true }) allowPriorConsents: boolean;
  @Prop({ type: Object, required: true }) refresh: BulkImportRefresh;
  @Prop({ type: String, required: true }) status: BulkImportState['status'];
  @Prop({ required: true }) createdAt: Date;
  @Prop({ required: true }) createdBy: string;
  @Prop({ required: true }) expiresAt: Date;
  @Prop({ required: true }) received: number;
  @Prop({ required: true }) valid: number;
  @Prop({ required: true }) invalid: number;
  /** Stage calls so far (each record's exception names its stage). */
  @Prop({ required: true }) stages: number;
  /** Chunks of staged records written, `<clientId>|<token>|c1` to `c<chunks>`. */
  @Prop({ required: true }) chunks: number;
  /** Exception records, on pages `<clientId>|<token>|x1`... of EXCEPTION_PAGE_SIZE. */
  @Prop({ required: true }) exceptions: number;
  /** Execute: who executed it (the records are written as this user, in their scope). */
  @Prop() executedBy?: string;
  @Prop({ type: Object }) executedScope?: CallerScope;
  @Prop() executedAt?: Date;
  /** Chunks whose records were all accepted; the worker goes on with the next one. */
  @Prop() appliedChunks?: number;
  /** Records of chunk appliedChunks+1 already accepted (progress saved per APPLY_BATCH). */
  @Prop() appliedInChunk?: number;
  /**
   * The profile ids reserved for the new profiles of the batch being applied (chunk, the
   * batch's first record in it, and each record's index in the batch with its id), saved
   * before they are created: a run resumed on that batch finishes those profiles
   * (ProfileImportWrites.createNew, resumed) instead of creating them again. `ids` is
   * stored as its JSON text (`encodeNewProfileIds`): a few hundred subdocuments made each
   * save of the import several milliseconds of the engine's time.
   */
  @Prop({ type: Object }) newProfiles?: {
    chunk: number;
    at: number;
    ids: string | NewProfileId[];
    /**
     * The instant the batch's profiles are built at (ISO 8601): a resumed batch builds those
     * it never saved at the same instant, so exactly as before (absent on imports saved
     * before it was kept: those go the ordinary way).
     */
    now?: string;
  };
  /** Staged records accepted as profile writes. */
  @Prop() processed?: number;
  /** Staged records Execute refused (checked against the stored profile): exceptions too. */
  @Prop() notHonored?: number;
  /** When it became Completed or Failed (DataStageDuration counts from then). */
  @Prop() endedAt?: Date;
  /** Why it Failed. */
  @Prop() failure?: string;
  /** When the cleanup removed its chunks and exception pages (the document goes later). */
  @Prop() dataRemovedAt?: Date;
}
export const BulkImportSchema = SchemaFactory.createForClass(BulkImport);

/**
 * A staged record: its number in the import (from 1), the Stage call and index that sent
 * it (an exception Execute finds names them) and the profile body as sent.
 */
export interface StagedRecord {
  n: number;
  stage: number;
  index: number;
  body: ProfileDto;
}

/**
 * A chunk of an import's valid staged records, in staging order. `_id` is
 * `<clientId>|<token>|c<n>`: Execute reads chunks 1, 2, ... by `_id`.
 */
@Schema({ collection: 'bulk_import_chunks', versionKey: false, minimize: false })
export class BulkImportChunk {
  @Prop({ type: String }) _id: TenantKey;
  @Prop({ required: true }) clientId: string;
  @Prop({ required: true }) accessToken: number;
  @Prop({ required: true }) chunk: number;
  /**
   * Each record's JSON text (BulkImportRepository.writeChunk; chunks staged before held
   * subdocuments). Read decoded: `StagedChunk`.
   */
  @Prop({ type: [MongooseSchema.Types.Mixed], required: true }) records: Array<
    string | StagedRecord
  >;
}
export const BulkImportChunkSchema = SchemaFactory.createForClass(BulkImportChunk);

/** A record of the batch being applied and the profile id reserved for it. */
export interface NewProfileId {
  index: number;
  profileId: number;
}

/** `BulkImport.newProfiles.ids` as stored. */
export function encodeNewProfileIds(ids: NewProfileId[]): string {
  return JSON.stringify(ids);
}

/** `BulkImport.newProfiles.ids` as saved, whichever way (subdocuments before the text). */
export function decodeNewProfileIds(ids: string | NewProfileId[]): NewProfileId[] {
  return typeof ids === 'string' ? (JSON.parse(ids) as NewProfileId[]) : ids;
}

/** A chunk as read, its records decoded. */
export type StagedChunk = Omit<BulkImportChunk, 'records'> & { records: StagedRecord[] };

/**
 * A chunk's records as stored: each one's JSON text. The engine stores and returns a string
 * without converting every field of it, several times cheaper than the same record as a
 * subdocument (docs/bulk.md, "Storage"); nothing queries inside a staged record.
 */
export function encodeStagedRecords(records: StagedRecord[]): string[] {
  return records.map((record) => JSON.stringify(record));
}

/** A stored chunk's records, whichever way they were stored. */
export function decodeStagedRecords(records: Array<string | StagedRecord>): StagedRecord[] {
  return records.map((record) =>
    typeof record === 'string' ? (JSON.parse(record) as StagedRecord) : record,
  );
}

/** One exception record: which record, its match value if it had one, and why. */
export interface StoredBulkException {
  n: number;
  stage: number;
  index: number;
  alternateId: string | null;
  reason: string;
}

/**
 * A page of an import's exception records, numbered from 1 in the order they arose.
 * `_id` is `<clientId>|<token>|x<page>`; page p holds records (p-1)*size+1 to p*size.
 */
@Schema({ collection: 'bulk_import_exceptions', versionKey: false, minimize: false })
export class BulkImportExceptionPage {
  @Prop({ type: String }) _id: TenantKey;
  @Prop({ required: true }) clientId: string;
  @Prop({ required: true }) accessToken: number;
  @Prop({ required: true }) page: number;
  @Prop({ type: [MongooseSchema.Types.Mixed], required: true }) records: StoredBulkException[];
}
export const BulkImportExceptionPageSchema = SchemaFactory.createForClass(BulkImportExceptionPage);
