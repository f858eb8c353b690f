import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsNotEmpty, IsOptional, IsString, Matches, MaxLength } from 'class-validator';

/** Body of POST /{clientId}/Groups/{groupType}/Rename. Names as long as a profile's GroupName. */
export class RenameGroupDto {
  @ApiProperty({
    minLength: 1,
    pattern: '\\S',
    maxLength: 100,
    description: 'The group to rename (case-insensitive)',
  })
  @IsString()
  @IsNotEmpty()
  @Matches(/\S/, { message: 'OldGroupName must not be blank' })
  @MaxLength(100)
  OldGroupName: string;

  @ApiProperty({
    minLength: 1,
    pattern: '\\S',
    maxLength: 100,
    description: 'Its new name, stored as sent',
  })
  @IsString()
  @IsNotEmpty()
  @Matches(/\S/, { message: 'NewGroupName must not be blank' })
  @MaxLength(100)
  NewGroupName: string;

  @ApiPropertyOptional({
    type: Boolean,
    default: false,
    description: 'Must be true when the new group already exists: its members are then merged',
  })
  @IsOptional()
  @IsBoolean()
  AllowMerge?: boolean;
}

export class RenameGroupResultDto {
  @ApiProperty() GroupType: string;
  @ApiProperty() OldGroupName: string;
  @ApiProperty() NewGroupName: string;
  @ApiProperty({ description: 'Profiles that got a queued rename write' })
  ProfilesQueued: number;
}
