import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** The outcome of a queued write, wherever a write record shows it. */
export const WRITE_STATUS_DESCRIPTION =
  'Pending Update: accepted and queued, not applied yet; Complete: applied; Failed: refused when applied (FailureReason says why)';

/** The Status of a write record, wherever one is shown: its outcome. */
export const WriteStatusField = (): PropertyDecorator =>
  ApiProperty({
    enum: ['Pending Update', 'Complete', 'Failed'],
    description: WRITE_STATUS_DESCRIPTION,
  });

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
      'consent-confirm',
      'consent-confirmation-expire',
      'preference-confirm',
      'preference-confirmation-expire',
    ],
    description:
      'What the write does: create, merge (POST), overwrite (PUT), patch (JSON Patch), delete, erase (data-subject erasure), ' +
      'remove-tag (a tag deleted from the account), rename-group (a group renamed), archive-preferences, ' +
      'dnc-apply (a do-not-contact listing applied), expire (the consent expiry job), ' +
      'consent-version-pending (a new consent version marks consents UpdatedVersionPending), ' +
      "rename-consent-type (a consent type's new name written on its consents), " +
      "consent-confirm (a held grant confirmed from the person's mailbox: double opt-in), " +
      'consent-confirmation-expire (a pending confirmation past its time to live: its mark cleared), ' +
      "preference-confirm (a held opt-in confirmed from the person's mailbox: double opt-in), " +
      "preference-confirmation-expire (a pending opt-in's confirmation past its time to live: its mark cleared)",
  })
  Operation: string;

  @WriteStatusField()
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
