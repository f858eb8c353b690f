import type { TenantKey } from '@app/shared';
import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import type { CallerScope } from '@app/profiles';
import type {
  BulkExportState,
  BulkExportStatusName,
  ExportCallbackStatus,
  ExportMatchCriteria,
} from './bulk-export';

/**
 * Where a client's next export access token is probed from. `_id` is the client id; the
 * insert of the export (`<clientId>|<token>` in `bulk_exports`) decides. Export tokens are
 * counted apart from import tokens (their own collections).
 */
@Schema({ collection: 'bulk_export_hints', versionKey: false })
export class BulkExportHint {
  @Prop({ type: String }) _id: TenantKey;
  @Prop({ required: true }) clientId: string;
  @Prop({ required: true }) last: number;
}
export const BulkExportHintSchema = SchemaFactory.createForClass(BulkExportHint);

/**
 * One export of a client. `_id` is `<clientId>|<accessToken>`: inserting it claims the
 * token (int32 per client, from 1). While it is built, only the run holding its lease
 * saves it (whole, by `_id`), each time after the page it wrote: a run that dies leaves at
 * most a page past `pageRows`, which the next run writes again.
 */
@Schema({ collection: 'bulk_exports', versionKey: false, minimize: false })
export class BulkExport implements BulkExportState {
  @Prop({ type: String }) _id: TenantKey;
  @Prop({ required: true }) clientId: string;
  @Prop({ required: true }) accessToken: number;
  /** A label (the older route's segment name); every segment is all the account's profiles. */
  @Prop({ type: String, default: null }) segmentName: string | null;
  /** Only profiles saved at or after it (null: all). */
  @Prop({ type: Date, default: null }) lastDateTime: Date | null;
  @Prop({ type: String, default: null }) matchCriteria: ExportMatchCriteria | null;
  /** The alternate id type of MatchCriteria AlternateID. */
  @Prop({ type: String, default: null }) matchType: string | null;
  @Prop({ type: String, default: null }) callbackUrl: string | null;
  @Prop({ type: String, default: null }) callbackStatus: ExportCallbackStatus | null;
  @Prop({ type: String, required: true }) status: BulkExportStatusName;
  @Prop({ required: true }) createdAt: Date;
  @Prop({ required: true }) createdBy: string;
  /** The exporter's user-group scope: rows show what they may see. */
  @Prop({ type: Object }) scope?: CallerScope;
  /** When it expires once ended (while it is built: Initiate + BULK_EXPORT_TTL_MS, not applied). */
  @Prop({ required: true }) expiresAt: Date;
  /** The next profile id to read. */
  @Prop({ required: true }) nextProfileId: number;
  /** Rows of each page written: page k is `<clientId>|e<token>|p<k>`. */
  @Prop({ type: [Number], required: true }) pageRows: number[];
  @Prop({ required: true }) rowCount: number;
  /** Bytes of the rows: their JSON text and a newline each (the NDJSON stream's length). */
  @Prop({ required: true }) byteCount: number;
  /** Runs so far: a job names the run it is queued for, so a duplicate ends at once. */
  @Prop({ required: true }) runs: number;
  /** When a run last saved progress (a building export without progress is queued again). */
  @Prop({ required: true }) progressAt: Date;
  /** Runs failed in a row (Error), and the last one's reason. */
  @Prop({ required: true }) failures: number;
  @Prop() failure?: string;
  @Prop() completedAt?: Date;
  /** Commit without keepFiles, or expiry: the pages are removed (by the purge job). */
  @Prop() pagesRemoved?: boolean;
  /** When the purge job had removed every page. */
  @Prop() purgedAt?: Date;
}
export const BulkExportSchema = SchemaFactory.createForClass(BulkExport);

/**
 * A page of an export's rows, in profile id order: each row the JSON text of one profile.
 * `_id` is `<clientId>|e<token>|p<k>`; pages are read, and removed, by `_id`.
 */
@Schema({ collection: 'bulk_export_pages', versionKey: false, minimize: false })
export class BulkExportPage {
  @Prop({ type: String }) _id: TenantKey;
  @Prop({ required: true }) clientId: string;
  @Prop({ required: true }) accessToken: number;
  @Prop({ required: true }) page: number;
  @Prop({ type: [String], required: true }) rows: string[];
}
export const BulkExportPageSchema = SchemaFactory.createForClass(BulkExportPage);
