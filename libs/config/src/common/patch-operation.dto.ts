import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Allow, IsIn, IsOptional, IsString } from 'class-validator';

export const PATCH_OPS = ['add', 'remove', 'replace', 'test', 'move', 'copy'] as const;

/** One JSON Patch operation (RFC 6902) as the spec writes it; move and copy are refused. */
export class PatchOperationDto {
  @ApiProperty({
    enum: PATCH_OPS,
    description: 'add, remove, replace or test (move and copy are refused)',
  })
  @IsIn(PATCH_OPS)
  op: (typeof PATCH_OPS)[number];

  @ApiProperty({ example: '/LocalizedFields/0/Name', description: 'JSON pointer' })
  @IsString()
  path: string;

  @ApiPropertyOptional({ description: 'Value to add, replace or test' })
  @Allow()
  value?: unknown;

  @ApiPropertyOptional({ description: 'Only meaningful for the unsupported move and copy' })
  @IsOptional()
  @IsString()
  from?: string;
}
