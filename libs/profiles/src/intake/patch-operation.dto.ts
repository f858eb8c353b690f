import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { AnyJsonValue, JSON_POINTER_PATTERN, MAX_PATCH_OPERATIONS } from '@app/shared';

/**
 * One JSON Patch operation (RFC 6902) on a profile's wire shape, as the spec writes it.
 * Documents the body only: bodies are checked by the PATCH pipes (move and copy refused).
 */
export class ProfilePatchOperationDto {
  @ApiProperty({
    enum: ['add', 'remove', 'replace', 'test'],
    description: 'add, remove, replace or test (move and copy are refused with 400)',
  })
  op: string;

  @ApiProperty({
    example: '/Emails/0/EmailAddress',
    description: 'JSON pointer into the profile',
    pattern: JSON_POINTER_PATTERN,
  })
  path: string;

  @AnyJsonValue({ description: 'Value to add, replace or test: any JSON value' })
  value?: unknown;

  @ApiPropertyOptional({ description: 'Only meaningful for the unsupported move and copy' })
  from?: string;
}

/** The body of PATCH by alternate id. */
export class ProfilePatchRequestDto {
  @ApiProperty({
    type: [ProfilePatchOperationDto],
    minItems: 1,
    maxItems: MAX_PATCH_OPERATIONS,
  })
  Operations: ProfilePatchOperationDto[];
}
