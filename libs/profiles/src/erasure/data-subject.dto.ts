import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsNotEmpty,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import { ProfileDto } from '../wire/profile.dto';
import { WriteStatusField } from '../read/get-profile-updates/profile-update.dto';

/** Identifiers one check may name per list (four lists: 100 in all). */
export const ERASURE_CHECK_MAX = 25;

/** Body of POST /{clientId}/Profile/{profileId}/Erasure. */
export class EraseProfileDto {
  @ApiProperty({
    minLength: 1,
    maxLength: 64,
    pattern: '^[A-Za-z0-9._:-]{1,64}$',
    example: 'GDPR-ART17',
    description:
      'Why the profile is erased: a code (letters, digits, ".", "_", ":", "-"; no free text, so no personal data can enter the audit tombstone through it). Kept in the tombstone.',
  })
  @IsString()
  @Matches(/^[A-Za-z0-9._:-]{1,64}$/, {
    message: 'ReasonCode must be 1 to 64 letters, digits, ".", "_", ":" or "-"',
  })
  ReasonCode: string;

  @ApiPropertyOptional({
    maxLength: 200,
    example: 'Ticket 4711',
    description:
      'A reference for the audit trail (a ticket number), kept in the tombstone: it must not hold personal data of the person erased.',
  })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  Note?: string;
}

/** A profile id's tombstone as the erasure left it (no personal data). */
export class ErasureTombstoneDto {
  @ApiProperty({ type: 'integer', format: 'int32', minimum: 1 })
  ProfileId: number;

  @ApiProperty({ description: 'The user whose erasure request was accepted' })
  RequestedBy: string;

  @ApiProperty({ format: 'date-time', description: 'When the request was accepted' })
  RequestedUtcTime: string;

  @ApiProperty({ format: 'date-time', description: 'When the worker erased the profile' })
  ErasedUtcTime: string;

  @ApiProperty({ example: 'GDPR-ART17' })
  ReasonCode: string;

  @ApiPropertyOptional({ example: 'Ticket 4711' })
  Note?: string;

  @ApiProperty({
    description: 'How many identifiers (emails, phones, alternate ids, name) were hashed',
  })
  IdentifiersHashed: number;
}

export class AlternateIdToCheckDto {
  @ApiProperty({ minLength: 1, maxLength: 100, example: 'CRM' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  AlternateIdType: string;

  @ApiProperty({ minLength: 1, maxLength: 256, example: 'C-1001' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(256)
  AlternateId: string;
}

export class NameToCheckDto {
  @ApiPropertyOptional({ maxLength: 100, example: 'Ann' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  FirstName?: string;

  @ApiPropertyOptional({ maxLength: 100, example: 'Lee' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  LastName?: string;
}

/** Body of POST /{clientId}/ErasedIdentifiers/Check: identifiers to look up. */
export class ErasedIdentifierCheckDto {
  @ApiPropertyOptional({
    type: [String],
    maxItems: ERASURE_CHECK_MAX,
    example: ['ann@example.com'],
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(ERASURE_CHECK_MAX)
  @IsString({ each: true })
  @MaxLength(256, { each: true })
  Emails?: string[];

  @ApiPropertyOptional({ type: [String], maxItems: ERASURE_CHECK_MAX, example: ['+1 555 0100'] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(ERASURE_CHECK_MAX)
  @IsString({ each: true })
  @MaxLength(100, { each: true })
  PhoneNumbers?: string[];

  @ApiPropertyOptional({ type: [AlternateIdToCheckDto], maxItems: ERASURE_CHECK_MAX })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(ERASURE_CHECK_MAX)
  @ValidateNested({ each: true })
  @Type(() => AlternateIdToCheckDto)
  AlternateIds?: AlternateIdToCheckDto[];

  @ApiPropertyOptional({ type: [NameToCheckDto], maxItems: ERASURE_CHECK_MAX })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(ERASURE_CHECK_MAX)
  @ValidateNested({ each: true })
  @Type(() => NameToCheckDto)
  Names?: NameToCheckDto[];
}

export class ErasedIdentifierMatchDto {
  @ApiProperty({
    enum: ['Email', 'PhoneNumber', 'AlternateId', 'Name'],
    description:
      'Which identifier of the request an erased profile held: Email, PhoneNumber, AlternateId (type and value) or Name (first and last name)',
  })
  Kind: string;

  @ApiProperty({
    description:
      'The identifier as the request named it (Email, PhoneNumber: the text; AlternateId: "<type>: <value>"; Name: "<first> <last>")',
    example: 'ann@example.com',
  })
  Value: string;

  @ApiProperty({
    type: 'integer',
    isArray: true,
    description: 'The erased profiles that held it (ids are never reused)',
  })
  ProfileIds: number[];

  @ApiProperty({ format: 'date-time', description: 'When the last of them was erased' })
  LastErasedUtcTime: string;
}

export class ErasedIdentifierCheckResultDto {
  @ApiProperty({ description: 'How many identifiers were looked up' })
  Checked: number;

  @ApiProperty({ type: [ErasedIdentifierMatchDto] })
  Matches: ErasedIdentifierMatchDto[];
}

/** One kept write record of the profile in an export. */
export class ExportedWriteDto {
  @ApiProperty({ description: 'Acceptance order within the profile, from 1' })
  Sequence: number;

  @ApiProperty({ example: 'merge' })
  Operation: string;

  @WriteStatusField()
  Status: string;

  @ApiProperty({ format: 'date-time' })
  SubmittedUtcTime: string;

  @ApiProperty({ description: 'The user that sent it' })
  UserId: string;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: 'The body as accepted (absent for writes without one)',
  })
  Body?: Record<string, unknown>;

  @ApiPropertyOptional({ description: 'Why the worker refused it (Failed only)' })
  FailureReason?: string;
}

export class ExportedImportRecordDto {
  @ApiProperty({ description: "The bulk import's access token" })
  AccessToken: number;

  @ApiProperty({ description: 'The number of its last record applied to the profile' })
  RecordNumber: number;
}

/**
 * The answer of GET /{clientId}/Profile/{profileId}/Export (streamed): everything the
 * service holds on the person (docs/data-subject.md).
 */
export class ProfileExportDto {
  @ApiProperty({ example: 'acme' })
  ClientId: string;

  @ApiProperty({ type: 'integer', format: 'int32', minimum: 1 })
  ProfileId: number;

  @ApiProperty({ format: 'date-time' })
  ExportedAt: string;

  @ApiProperty({
    description: 'Sequence number of the last write the export shows (the profile as saved)',
  })
  AppliedSequence: number;

  @ApiProperty({
    type: 'string',
    nullable: true,
    example: '3f1c9a0e5b7d2c4f6a8e0b1d3c5f7a9e2b4d6f8a0c1e3b5d7f9a2c4e6b8d0f1a',
    description:
      'Hash of the last entry of the consent and preference hash chain (docs/receipts.md): lets a verifier of History see entries cut off its end; null while no entry is chained',
  })
  HistoryChainHead: string | null;

  @ApiProperty({
    type: ProfileDto,
    description:
      'The profile as GET shows it, implied preferences included and archived preferences marked IsActive false',
  })
  Profile: ProfileDto;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    nullable: true,
    description:
      'The profile data exactly as stored, inactive (removed) elements included; null while its create is not applied',
  })
  StoredData: Record<string, unknown> | null;

  @ApiProperty({
    type: 'array',
    items: { type: 'object', additionalProperties: true },
    description:
      'Every history entry of the profile exactly as stored (all categories, fields such as hash and prevHash included), in (seq, n) order, up to AppliedSequence',
  })
  History: Record<string, unknown>[];

  @ApiProperty({
    type: 'array',
    items: { type: 'object', additionalProperties: true },
    description:
      "Every kept event of the profile's writes exactly as stored (EVENT_HISTORY_DAYS, EVENT_LOG_MAX), in (seq, n) order",
  })
  Events: Record<string, unknown>[];

  @ApiProperty({
    type: [ExportedWriteDto],
    description:
      'The write records kept (the last WRITE_RECORDS_KEPT and any not applied yet), with their bodies, oldest first',
  })
  Writes: ExportedWriteDto[];

  @ApiProperty({
    type: [ExportedImportRecordDto],
    description: 'Bulk import records applied to the profile (the last of each recent import)',
  })
  ImportRecords: ExportedImportRecordDto[];

  @ApiProperty({
    type: () => [ExportedAbsorbedProfileDto],
    description:
      'The profiles this one absorbed by merges (docs/profile-merge.md): each with its own history exactly as stored and its chain head',
  })
  Absorbed: ExportedAbsorbedProfileDto[];
}

/** A profile the exported one absorbed: its history stays its own (its chain too). */
export class ExportedAbsorbedProfileDto {
  @ApiProperty({ type: 'integer', format: 'int32', minimum: 1 })
  ProfileId: number;

  @ApiProperty({ type: 'string', nullable: true, description: "The absorbed profile's chain head" })
  HistoryChainHead: string | null;

  @ApiProperty({
    type: 'array',
    items: { type: 'object', additionalProperties: true },
    description: 'Its history entries exactly as stored, in (seq, n) order',
  })
  History: Record<string, unknown>[];
}
