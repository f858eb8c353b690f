import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import { INT32_MAX } from '@app/shared';

/**
 * Body of POST /{clientId}/Profile/{survivorId}/Merge (docs/profile-merge.md): the profile
 * to absorb, by id or by one of its alternate ids (exactly one of the two), and why.
 */
export class MergeProfileDto {
  @ApiPropertyOptional({
    type: 'integer',
    format: 'int32',
    minimum: 1,
    maximum: INT32_MAX,
    description: 'The profile to absorb (or AbsorbedAlternateId with its type)',
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(INT32_MAX)
  AbsorbedProfileId?: number;

  @ApiPropertyOptional({
    minLength: 1,
    maxLength: 100,
    description: 'An active alternate id of the profile to absorb (with AbsorbedAlternateIdType)',
  })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  AbsorbedAlternateId?: string;

  @ApiPropertyOptional({
    minLength: 1,
    maxLength: 100,
    description: 'The type of AbsorbedAlternateId',
  })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  AbsorbedAlternateIdType?: string;

  @ApiProperty({
    minLength: 1,
    maxLength: 100,
    pattern: '\\S',
    description: "Why the profiles are merged: the survivor's ReasonCode after the merge",
  })
  @IsString()
  @IsNotEmpty()
  @Matches(/\S/, { message: 'ReasonCode must not be blank' })
  @MaxLength(100)
  ReasonCode: string;
}

/** The answer of an accepted merge (202), or of a merge already accepted (200). */
export class MergeSubmissionResultDto {
  @ApiProperty({ type: 'integer', format: 'int32', description: 'The survivor' })
  ProfileId: number;

  @ApiProperty({ type: 'integer', format: 'int32', description: 'The absorbed profile' })
  AbsorbedProfileId: number;

  @ApiProperty({
    type: 'integer',
    description:
      "The sequence number of the merge's write on the absorbed profile: its outcome shows in GET Profile/{AbsorbedProfileId}/Updates",
  })
  Sequence: number;

  @ApiProperty({
    example: 'Pending Update',
    description: 'Pending Update, or Complete for a merge done earlier',
  })
  UpdateStatus: string;

  @ApiProperty({ format: 'date-time', description: 'When the merge was accepted' })
  SubmittedUtcTime: string;
}
