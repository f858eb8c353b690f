import { ApiProperty } from '@nestjs/swagger';
import { OptionalInt, OptionalText, RequiredText } from '@app/shared';

/**
 * Body of POST /{clientId}/Profile/{survivorId}/Merge (docs/profile-merge.md): the profile
 * to absorb, by id or by one of its alternate ids (exactly one of the two), and why.
 */
export class MergeProfileDto {
  @OptionalInt(1, {
    format: 'int32',
    description: 'The profile to absorb (or AbsorbedAlternateId with its type)',
  })
  AbsorbedProfileId?: number;

  @OptionalText(100, {
    minLength: 1,
    description: 'An active alternate id of the profile to absorb (with AbsorbedAlternateIdType)',
  })
  AbsorbedAlternateId?: string;

  @OptionalText(100, { minLength: 1, description: 'The type of AbsorbedAlternateId' })
  AbsorbedAlternateIdType?: string;

  @RequiredText(
    100,
    { description: "Why the profiles are merged: the survivor's ReasonCode after the merge" },
    'ReasonCode must not be blank',
  )
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
