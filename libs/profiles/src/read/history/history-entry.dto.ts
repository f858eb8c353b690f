import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ProfileDto } from '../../wire/profile.dto';

/** Where a history entry of a survivor came from: the profile it absorbed. */
export class HistoryOriginDto {
  @ApiProperty({ type: 'integer', format: 'int32', description: 'The absorbed profile' })
  ProfileId: number;
}

/** A merge recorded in the survivor's history (StandardFields history). */
export class HistoryMergeDto {
  @ApiProperty({ type: 'integer', format: 'int32' })
  AbsorbedProfileId: number;

  @ApiProperty()
  ReasonCode: string;

  @ApiProperty({ description: 'The user who merged' })
  MergedBy: string;

  @ApiProperty({ format: 'date-time', description: 'When the merge was accepted' })
  MergedAt: string;
}

/**
 * One history entry: Profile-shaped, plus, on a survivor (docs/profile-merge.md), `Merge`
 * on the entry of a merge and `Origin` on the entries of the profile it absorbed.
 */
export class HistoryEntryDto extends ProfileDto {
  @ApiPropertyOptional({
    type: HistoryOriginDto,
    description: 'An entry of a profile this one absorbed (a merge): that profile',
  })
  Origin?: HistoryOriginDto;

  @ApiPropertyOptional({
    type: HistoryMergeDto,
    description: 'The entry of a merge (StandardFields history): the profile absorbed',
  })
  Merge?: HistoryMergeDto;
}
