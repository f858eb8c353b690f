import { ApiProperty } from '@nestjs/swagger';

export class SharedKeyDto {
  @ApiProperty({
    enum: ['Email', 'Phone', 'NameAndAddress'],
    description:
      'What the two profiles share: Email (an email address), Phone (a phone number) or NameAndAddress (first and last name and a mailing address)',
  })
  Kind: string;

  @ApiProperty({
    description:
      'The shared value, normalised as the searches normalise it: an email address trimmed and lower-cased; a phone number as its digits; first name|last name|city|state/province, each trimmed, spaces folded and lower-cased',
  })
  Value: string;
}

export class MergeCandidateDto {
  @ApiProperty()
  ProfileId: number;

  @ApiProperty({ type: [SharedKeyDto] })
  SharedKeys: SharedKeyDto[];
}

export class MergeCandidatesDto {
  @ApiProperty({ description: 'The profile the candidates were looked up for' })
  ProfileId: number;

  @ApiProperty({
    type: [MergeCandidateDto],
    description:
      'Other active profiles of the client sharing a key, in profile id order, at most 50',
  })
  Candidates: MergeCandidateDto[];

  @ApiProperty({ description: 'true: more than 50 profiles share a key; the first 50 are listed' })
  Truncated: boolean;

  @ApiProperty({
    type: [SharedKeyDto],
    description: `Keys of the profile held by more profiles than a search may read (SEARCH_CANDIDATE_LIMIT): not looked up (too common to identify a person)`,
  })
  SkippedKeys: SharedKeyDto[];
}
