import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** One accepted write of a profile and its outcome (our extension; see docs/api.md). */
export class ProfileUpdateDto {
  @ApiProperty({ description: 'Acceptance order within the profile, from 1' })
  Sequence: number;

  @ApiProperty({
    enum: [
      'create',
      'merge',
      'overwrite',
      'patch',
      'delete',
      'erase',
      'remove-tag',
      'rename-group',
      'archive-preferences',
      'dnc-apply',
      'expire',
      'consent-version-pending',
      'rename-consent-type',
    ],
  })
  Operation: string;

  @ApiProperty({ enum: ['Pending Update', 'Complete', 'Failed'] })
  Status: string;

  @ApiProperty({ format: 'date-time' })
  SubmittedUtcTime: string;

  @ApiPropertyOptional({
    format: 'date-time',
    description:
      'When the worker refused the write (Failed only: an applied write is not saved again just to record its time)',
  })
  CompletedUtcTime?: string;

  @ApiPropertyOptional({ description: 'Why the write was refused when it was applied' })
  FailureReason?: string;

  @ApiProperty()
  UserId: string;
}

export class ProfileUpdateListDto {
  @ApiProperty({ type: [ProfileUpdateDto], description: 'Newest first, at most 100' })
  Updates: ProfileUpdateDto[];
}
