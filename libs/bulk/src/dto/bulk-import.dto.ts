import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsOptional, Max, Min } from 'class-validator';
import { OptionalBoolean, RequiredText } from '@app/shared';
import {
  BULK_IMPORT_OPERATIONS,
  BULK_IMPORT_STATUSES,
  type BulkImportOperation,
  type BulkImportStatusName,
  MATCH_CRITERIA,
} from '../domain/bulk-import';

const REFRESH = (collection: string) =>
  `true: an applied record replaces the matched profile's ${collection} instead of merging them (applied by Execute, a later slice). Default false.`;

/** The body of Initiate: what the import is and how its records are matched and applied. */
export class InitiateBulkImportDto {
  @RequiredText(100, { description: "The import's name, 1 to 100 characters" })
  Name: string;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 0,
    maximum: 10,
    default: 3,
    description:
      'Days the staged records and exceptions are kept after the import ends (Execute: a later slice); 0 to 10, default 3',
  })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(10)
  DataStageDuration?: number;

  @ApiProperty({
    enum: MATCH_CRITERIA,
    description: 'How records are matched to profiles: by an alternate id (the only criterion)',
  })
  @IsIn(MATCH_CRITERIA)
  MatchCriteria: (typeof MATCH_CRITERIA)[number];

  @RequiredText(100, {
    description:
      "The alternate id type records are matched by: an active type of the account's configuration (case-insensitive)",
  })
  MatchValue: string;

  @ApiPropertyOptional({
    enum: BULK_IMPORT_OPERATIONS,
    default: 'Add',
    description: 'Add (default): records are written to their profiles; Delete: they are deleted',
  })
  @IsOptional()
  @IsIn(BULK_IMPORT_OPERATIONS)
  Operation?: BulkImportOperation;

  @OptionalBoolean({
    default: false,
    description:
      "false (default): a record with a consent whose ConsentDate is earlier than the stored active consent's of the same ConsentType and place is not honored (an exception naming it); true: it is applied, its earlier date included. Checked when the record is accepted (docs/bulk.md, Status).",
  })
  AllowPriorConsents?: boolean;

  @OptionalBoolean({ default: false, description: REFRESH('alternate ids') })
  RefreshAlternateIds?: boolean;

  @OptionalBoolean({ default: false, description: REFRESH('emails, phones and addresses') })
  RefreshContacts?: boolean;

  @OptionalBoolean({ default: false, description: REFRESH('custom fields') })
  RefreshCustomFields?: boolean;

  @OptionalBoolean({ default: false, description: REFRESH('groups') })
  RefreshGroups?: boolean;

  @OptionalBoolean({ default: false, description: REFRESH('tags') })
  RefreshTags?: boolean;
}

const COUNTER = { type: 'integer', minimum: 0 } as const;

/** An import as Initiate, Stage and Status answer it (the notes' BulkImportStatus). */
export class BulkImportStatusDto {
  @ApiProperty({
    type: 'integer',
    format: 'int32',
    minimum: 1,
    description: "The import's access token: an integer, unique per account",
  })
  AccessToken: number;

  @ApiProperty() Name: string;

  @ApiProperty({
    enum: BULK_IMPORT_STATUSES,
    description:
      'Initiated (nothing staged yet), Staging (records staged), Queued (executed, waiting for a worker), Processing (the worker applies its records), Completed (every staged record was accepted as a profile write or became an exception), Failed (the staged records could not be read)',
  })
  Status: BulkImportStatusName;

  @ApiProperty({
    type: String,
    format: 'date-time',
    description:
      'When the access token expires: Stage and Execute are refused (401) from then on; Status and Exceptions too, unless the import runs or ended less than DataStageDuration days ago',
  })
  Expires: string;

  @ApiProperty({ type: String, format: 'date-time' }) Created: string;
  @ApiProperty({ type: 'integer', minimum: 0, maximum: 10 }) DataStageDuration: number;
  @ApiProperty({
    enum: MATCH_CRITERIA,
    description: 'AlternateIdType: records are matched by their alternate id of type MatchValue',
  })
  MatchCriteria: string;
  @ApiProperty() MatchValue: string;
  @ApiProperty({
    enum: BULK_IMPORT_OPERATIONS,
    description: 'Add: records are written to their profiles; Delete: their profiles are deleted',
  })
  Operation: BulkImportOperation;
  @ApiProperty() AllowPriorConsents: boolean;
  @ApiProperty() RefreshAlternateIds: boolean;
  @ApiProperty() RefreshContacts: boolean;
  @ApiProperty() RefreshCustomFields: boolean;
  @ApiProperty() RefreshGroups: boolean;
  @ApiProperty() RefreshTags: boolean;

  @ApiProperty({ ...COUNTER, description: 'Records received by Stage, valid or not' })
  TotalRecordsReceived: number;
  @ApiProperty({ ...COUNTER, description: 'Records that passed the checks and were staged' })
  ValidationSuccessful: number;
  @ApiProperty({ ...COUNTER, description: 'Records refused by the checks (each an exception)' })
  ValidationFailed: number;
  @ApiProperty({
    ...COUNTER,
    description:
      "Staged records Execute accepted as profile writes (each then applied in its profile's write order)",
  })
  Processed: number;
  @ApiProperty({
    ...COUNTER,
    description:
      'Staged records Execute has not reached yet (ValidationSuccessful - Processed - NotHonored)',
  })
  Pending: number;
  @ApiProperty({
    ...COUNTER,
    description: 'Exception records: ValidationFailed + NotHonored (see the Exceptions route)',
  })
  Exceptions: number;
  @ApiProperty({
    ...COUNTER,
    description:
      'Staged records Execute refused, checked against the stored profile (an AlternateId another profile holds, a create without CustomerType, a Delete of an AlternateId no profile holds): each an exception record',
  })
  NotHonored: number;
}

/** One exception record: a record that was refused, and why. */
export class BulkImportExceptionDto {
  @ApiProperty({
    type: 'integer',
    minimum: 1,
    description:
      'The record number in the import: records are numbered from 1 across every Stage call',
  })
  RecordNumber: number;

  @ApiProperty({ type: 'integer', minimum: 1, description: 'Which Stage call (from 1) sent it' })
  Stage: number;

  @ApiProperty({
    type: 'integer',
    minimum: 0,
    description: "Its index in that call's array (from 0)",
  })
  Index: number;

  @ApiProperty({
    type: String,
    nullable: true,
    description: "The record's AlternateId of the import's MatchValue type; null when it has none",
  })
  AlternateId: string | null;

  @ApiProperty({ description: 'Why it was refused: each problem names the field and value' })
  Reason: string;
}

/** A page of an import's exception records. */
export class BulkImportExceptionsDto {
  @ApiProperty({ ...COUNTER, description: 'Exception records on this page' }) Count: number;
  @ApiProperty({ description: 'true when records follow this page' }) HasMore: boolean;
  @ApiProperty({ type: 'integer', minimum: 1, maximum: 1000 }) Limit: number;
  @ApiProperty({
    type: 'integer',
    minimum: 1,
    description: 'The first record number asked for (from 1)',
  })
  Offset: number;
  @ApiProperty({ ...COUNTER, description: 'Exception records of the import' })
  TotalResults: number;
  @ApiProperty({ type: () => BulkImportExceptionDto, isArray: true })
  Exceptions: BulkImportExceptionDto[];
}
