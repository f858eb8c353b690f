import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsISO8601, IsOptional } from 'class-validator';
import { ProfileDto } from '@app/profiles';
import { OptionalText } from '@app/shared';
import {
  BULK_EXPORT_STATUSES,
  type BulkExportStatusName,
  EXPORT_MATCH_CRITERIA,
  EXPORT_ROWS_LIMIT_MAX,
  type ExportCallbackStatus,
  type ExportMatchCriteria,
} from '../domain/bulk-export';

const LAST_DATE_TIME =
  'Only profiles saved at or after this time (ISO 8601): a profile is saved when a write of it is applied. Absent: every profile of the account';
const CALLBACK_URL =
  'An http or https URL that receives POST {AccessToken, Status, RowCount, ByteCount} (JSON) when the export is Complete or Failed (3 attempts; a failed callback does not fail the export)';

/** The body of the older Initiate, `POST {clientId}/export/Segment/{segmentName}`. */
export class ExportSegmentDto {
  @ApiPropertyOptional({ type: String, format: 'date-time', description: LAST_DATE_TIME })
  @IsOptional()
  @IsISO8601({ strict: true })
  LastDateTime?: string;

  @OptionalText(2048, { format: 'uri', description: CALLBACK_URL })
  CallbackURL?: string;
}

/** The body of Initiate: which profiles, keyed how, and who is told when it is done. */
export class InitiateBulkExportDto extends ExportSegmentDto {
  @OptionalText(100, {
    description:
      'A label kept on the export (the older route takes it from the path); every segment is all the profiles of the account saved since LastDateTime',
  })
  SegmentName?: string;

  @ApiPropertyOptional({
    enum: EXPORT_MATCH_CRITERIA,
    description:
      'Only profiles holding such an element, each row carrying its key as MatchKey: ProfileID (every profile; its id), EmailAddress (an email address) and PhoneNumber (a phone number; the default one, else the first), AlternateID (the first alternate id of type MatchType). Absent: every profile, no MatchKey',
  })
  @IsOptional()
  @IsIn(EXPORT_MATCH_CRITERIA)
  MatchCriteria?: ExportMatchCriteria;

  @OptionalText(100, {
    description:
      "Required with MatchCriteria AlternateID (only there): an active alternate id type of the account's configuration",
  })
  MatchType?: string;
}

const COUNTER = { type: 'integer', minimum: 0 } as const;
const TOKEN = {
  type: 'integer',
  format: 'int32',
  minimum: 1,
  description: "The export's access token: an integer, unique per account (imports count apart)",
} as const;
const STATUS = {
  enum: BULK_EXPORT_STATUSES,
  description:
    'Processing (the worker builds its pages), Error (a run failed and is retried), Failed (runs kept failing), Complete (every page built: retrieve it), Retrieved (read to the end without keepAlive, or committed), Expired (past Expires: its pages are removed)',
} as const;
const ROW_COUNT = { ...COUNTER, description: 'Rows (profiles) exported so far' } as const;
const BYTE_COUNT = {
  ...COUNTER,
  description: "Bytes of the rows: each row's JSON text and a newline (the Stream's length)",
} as const;
const EXPIRES = {
  type: String,
  format: 'date-time',
  description:
    'When an ended export expires (BULK_EXPORT_TTL_MS after it became Complete or Failed, or after the last retrieval with keepAlive=true); while it is built, not applied',
} as const;

/** The access token of an export, as the older Initiate answers it. */
export class ExportAccessTokenDto {
  @ApiProperty(TOKEN) AccessToken: number;
}

/** `GET Async/{clientId}/Export/{accessToken}/Status`, and the callback's body. */
export class AsyncExportStatusDto {
  @ApiProperty(TOKEN) AccessToken: number;
  @ApiProperty(STATUS) Status: BulkExportStatusName;
  @ApiProperty(ROW_COUNT) RowCount: number;
  @ApiProperty(BYTE_COUNT) ByteCount: number;
}

/** `GET {clientId}/status/Token/{accessToken}`. */
export class ExportTokenStatusDto extends AsyncExportStatusDto {
  @ApiProperty(EXPIRES) Expires: string;
}

/** An export as Initiate, Status and Commit answer it. */
export class BulkExportStatusDto extends ExportTokenStatusDto {
  @ApiProperty({ type: String, format: 'date-time' }) Created: string;
  @ApiProperty({ type: String, nullable: true }) SegmentName: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) LastDateTime: string | null;
  @ApiProperty({
    enum: EXPORT_MATCH_CRITERIA,
    nullable: true,
    description:
      "The rows' key (MatchKey): ProfileID the profile id, AlternateID its alternate id of MatchType, EmailAddress an email address, PhoneNumber a phone number; null: every profile, no key",
  })
  MatchCriteria: ExportMatchCriteria | null;
  @ApiProperty({ type: String, nullable: true }) MatchType: string | null;
  @ApiProperty({ type: String, nullable: true }) CallbackURL: string | null;
  @ApiProperty({
    enum: ['Pending', 'Delivered', 'Failed'],
    nullable: true,
    description:
      'null without a CallbackURL; Pending until the export ends and the callback is answered; Delivered (a 2xx answer); Failed (every attempt failed)',
  })
  CallbackStatus: ExportCallbackStatus | null;
}

/** One row: a profile in the GET shape, archived preferences included. */
export class ExportedProfileDto extends ProfileDto {
  @ApiPropertyOptional({
    description:
      "With a MatchCriteria only: the profile's key of that criterion (its id, email address, phone number or alternate id)",
  })
  MatchKey?: string;
}

/** A page of an export's rows. */
export class BulkExportRowsDto {
  @ApiProperty({ ...COUNTER, description: 'Rows on this page' }) Count: number;
  @ApiProperty({ description: 'true when rows follow this page' }) HasMore: boolean;
  @ApiProperty({ type: 'integer', minimum: 1, maximum: EXPORT_ROWS_LIMIT_MAX }) Limit: number;
  @ApiProperty({ type: 'integer', minimum: 1, description: 'The first row asked for (from 1)' })
  Offset: number;
  @ApiProperty({ ...COUNTER, description: 'Rows of the export' }) TotalResults: number;
  @ApiProperty({
    type: () => ExportedProfileDto,
    isArray: true,
    description:
      "The profiles, in profile id order, each as GET .../Profile/{profileId} shows it to the exporter's user group (implied preferences included), plus its archived (inactive) preferences marked IsActive false",
  })
  UserProfilePreferences: ExportedProfileDto[];
}
