import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsIn,
  IsNotEmpty,
  IsString,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import { OptionalText } from '@app/shared';
import { DNC_LIST_TYPES, type DncListType } from '../domain/dnc-list.schema';

/** Entries accepted per request: each may fan out to many profiles. */
export const MAX_ENTRIES_PER_REQUEST = 1000;

export class CreateDncListDto {
  @ApiProperty({ minLength: 1, maxLength: 100 })
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  Name: string;

  @ApiProperty({
    enum: DNC_LIST_TYPES,
    description: 'What the list holds: Email (email addresses) or Phone (phone numbers)',
  })
  @IsIn(DNC_LIST_TYPES)
  ListType: DncListType;

  // null as absent (the validation takes it as absent).
  @OptionalText(256, { nullable: true })
  Description?: string;
}

export class DncListDto {
  @ApiProperty({ type: 'integer', format: 'int32', minimum: 1 }) ListId: number;
  @ApiProperty() Name: string;
  @ApiPropertyOptional() Description?: string;
  @ApiProperty({
    enum: DNC_LIST_TYPES,
    description: 'What the list holds: Email (email addresses) or Phone (phone numbers)',
  })
  ListType: DncListType;
  @ApiProperty({ format: 'date-time' }) CreateDate: string;
  @ApiProperty() CreatedBy: string;
}

export class DncListsDto {
  @ApiProperty({ type: [DncListDto] }) DoNotContactLists: DncListDto[];
}

export class DncEntryInputDto {
  @ApiProperty({
    minLength: 1,
    description: 'An email address or a phone number (punctuation allowed), as the list type says',
    maxLength: 254,
  })
  @IsString()
  @IsNotEmpty()
  @MaxLength(254)
  Value: string;

  @OptionalText(256, {
    description: 'Why the value is listed; recorded on the affected consents and preferences',
  })
  Reason_Code?: string;
}

export class AddDncEntriesDto {
  @ApiProperty({ type: [DncEntryInputDto], minItems: 1, maxItems: MAX_ENTRIES_PER_REQUEST })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_ENTRIES_PER_REQUEST)
  @ValidateNested({ each: true })
  @Type(() => DncEntryInputDto)
  Entries: DncEntryInputDto[];
}

export class DncEntryDto {
  @ApiProperty() Value: string;
  @ApiProperty({
    enum: ['Listed', 'Removed'],
    description: 'Listed: on the list; Removed: taken off it (kept for the record)',
  })
  Status: 'Listed' | 'Removed';
  @ApiPropertyOptional() Reason_Code?: string;
  @ApiProperty({ format: 'date-time' }) ModifiedDate: string;
  @ApiProperty() ModifiedBy: string;
  @ApiProperty({
    enum: ['Pending', 'Complete'],
    description:
      'Whether the last change has reached every profile holding the value: Pending (not yet), Complete (it has)',
  })
  Propagation: 'Pending' | 'Complete';
}

export class DncEntriesDto {
  @ApiProperty({ type: [DncEntryDto] }) Entries: DncEntryDto[];
  @ApiPropertyOptional({
    description: 'Pass as `after` for the next page; absent on the last page',
  })
  Next?: string;
}

export class AddDncEntriesResultDto {
  @ApiProperty({ description: 'Values newly put on the list (their propagation is queued)' })
  Added: number;
  @ApiProperty({ description: 'Values that were already listed' })
  Unchanged: number;
}
