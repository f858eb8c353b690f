import type { BulkExport } from '../domain/bulk-export.schema';
import type {
  AsyncExportStatusDto,
  BulkExportStatusDto,
  ExportTokenStatusDto,
} from '../dto/bulk-export.dto';

/** An export as Initiate, Status and Commit answer it: every field of BulkExportStatus. */
export function toBulkExportStatus(job: BulkExport): BulkExportStatusDto {
  return {
    AccessToken: job.accessToken,
    Status: job.status,
    RowCount: job.rowCount,
    ByteCount: job.byteCount,
    Expires: job.expiresAt.toISOString(),
    Created: job.createdAt.toISOString(),
    SegmentName: job.segmentName,
    LastDateTime: job.lastDateTime ? job.lastDateTime.toISOString() : null,
    MatchCriteria: job.matchCriteria,
    MatchType: job.matchType,
    CallbackURL: job.callbackUrl,
    CallbackStatus: job.callbackStatus,
  };
}

/** The older `status/Token` answer. */
export function toExportTokenStatus(status: BulkExportStatusDto): ExportTokenStatusDto {
  return {
    AccessToken: status.AccessToken,
    Expires: status.Expires,
    Status: status.Status,
    RowCount: status.RowCount,
    ByteCount: status.ByteCount,
  };
}

/** The older `Async/.../Status` answer, and the callback's body. */
export function toAsyncExportStatus(status: BulkExportStatusDto): AsyncExportStatusDto {
  return {
    AccessToken: status.AccessToken,
    Status: status.Status,
    RowCount: status.RowCount,
    ByteCount: status.ByteCount,
  };
}
