import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { AnyJsonValue, JSON_POINTER_PATTERN, SUPPORTED_PATCH_OPS } from '@app/shared';
import { Allow, IsIn, IsOptional, IsString } from 'class-validator';

export const PATCH_OPS = ['add', 'remove', 'replace', 'test', 'move', 'copy'] as const;

/** One JSON Patch operation (RFC 6902) as the spec writes it; move and copy are refused. */
export class PatchOperationDto {
  @ApiProperty({
    enum: SUPPORTED_PATCH_OPS,
    description: 'add, remove, replace or test (move and copy are refused with 400)',
  })
  @IsIn(PATCH_OPS)
  op: (typeof PATCH_OPS)[number];

  @ApiProperty({
    example: '/LocalizedFields/0/Name',
    description: 'JSON pointer',
    pattern: JSON_POINTER_PATTERN,
  })
  @IsString()
  path: string;

  @AnyJsonValue({ description: 'Value to add, replace or test: any JSON value' })
  @Allow()
  value?: unknown;

  @ApiPropertyOptional({ description: 'Only meaningful for the unsupported move and copy' })
  @IsOptional()
  @IsString()
  from?: string;
}
