import { ApiProperty } from '@nestjs/swagger';

export class TagDto {
  @ApiProperty()
  Name: string;

  @ApiProperty()
  IsActive: boolean;

  @ApiProperty({ type: 'integer', description: 'The tag’s number within the account' })
  ProfileTagLink: number;
}

export class TagCountDto {
  @ApiProperty({ type: TagDto })
  Tag: TagDto;

  @ApiProperty({ type: 'integer', description: 'Profiles (not deleted) carrying the tag' })
  Count: number;
}

export class TagCountsDto {
  @ApiProperty({ type: [TagCountDto] })
  TagCounts: TagCountDto[];
}
