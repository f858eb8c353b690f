import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { EditedDto, NestedArray, OptionalBoolean, OptionalText, ReadOnlyField } from '@app/shared';
import { OptionalIdList, RequiredList, RequiredText } from './program-fields';
import { CustomPropertyDto, ProgramDto } from './program.dto';

export class ProgramGroupDto {
  @ReadOnlyField({ type: 'integer', minimum: 1, format: 'int32', description: 'Program group id' })
  Id?: number;

  @RequiredText(100, { description: 'Unique (case-insensitive) per client' })
  Name: string;

  @OptionalText(1000)
  Description?: string;

  @OptionalBoolean({ description: 'Default true' })
  IsActive?: boolean;

  @NestedArray(() => CustomPropertyDto)
  CustomProperties?: CustomPropertyDto[];

  @OptionalIdList({ description: 'Ids of the programs the group contains (existing programs)' })
  ProgramIds?: number[];

  @OptionalIdList({
    description:
      'Ids of the program groups nested in this one (existing groups; a group may not contain itself, directly or through other groups)',
  })
  ProgramGroupIds?: number[];

  @ReadOnlyField({ type: () => EditedDto })
  Edited?: EditedDto;
}

export class ProgramGroupListDto {
  @RequiredList(() => ProgramGroupDto)
  ProgramGroups: ProgramGroupDto[];
}

/** A program group as the IncludeMatching / IncludeAll retrievals answer it: a tree. */
export class ProgramGroupTreeDto {
  @ApiProperty({ type: 'integer', minimum: 1, format: 'int32' })
  Id: number;

  @ApiProperty()
  Name: string;

  @ApiPropertyOptional()
  Description?: string;

  @ApiProperty()
  IsActive: boolean;

  @ApiProperty({ type: () => CustomPropertyDto, isArray: true })
  CustomProperties: CustomPropertyDto[];

  @ApiProperty({ type: () => ProgramGroupTreeDto, isArray: true, description: 'Nested groups' })
  ProgramGroups: ProgramGroupTreeDto[];

  @ApiProperty({ type: () => ProgramDto, isArray: true, description: 'Programs with filters' })
  Programs: ProgramDto[];

  @ApiPropertyOptional({ type: () => EditedDto })
  Edited?: EditedDto;
}

export class ProgramGroupTreeListDto {
  @ApiProperty({ type: () => ProgramGroupTreeDto, isArray: true })
  ProgramGroups: ProgramGroupTreeDto[];
}
