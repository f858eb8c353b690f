import type { BulkImport, StoredBulkException } from '../domain/bulk-import.schema';
import type { BulkImportExceptionDto, BulkImportStatusDto } from '../dto/bulk-import.dto';

/** An import as the routes answer it: every field of BulkImportStatus. */
export function toBulkImportStatus(job: BulkImport): BulkImportStatusDto {
  return {
    AccessToken: job.accessToken,
    Name: job.name,
    Status: job.status,
    Expires: job.expiresAt.toISOString(),
    Created: job.createdAt.toISOString(),
    DataStageDuration: job.dataStageDuration,
    MatchCriteria: job.matchCriteria,
    MatchValue: job.matchValue,
    Operation: job.operation,
    AllowPriorConsents: job.allowPriorConsents,
    RefreshAlternateIds: job.refresh.AlternateIds,
    RefreshContacts: job.refresh.Contacts,
    RefreshCustomFields: job.refresh.CustomFields,
    RefreshGroups: job.refresh.Groups,
    RefreshTags: job.refresh.Tags,
    TotalRecordsReceived: job.received,
    ValidationSuccessful: job.valid,
    ValidationFailed: job.invalid,
    Processed: job.processed ?? 0,
    Pending: job.valid - (job.processed ?? 0) - (job.notHonored ?? 0),
    Exceptions: job.exceptions,
    NotHonored: job.notHonored ?? 0,
  };
}

export function toBulkImportException(record: StoredBulkException): BulkImportExceptionDto {
  return {
    RecordNumber: record.n,
    Stage: record.stage,
    Index: record.index,
    AlternateId: record.alternateId,
    Reason: record.reason,
  };
}
