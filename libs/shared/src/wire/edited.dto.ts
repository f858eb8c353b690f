import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, ValidateIf } from 'class-validator';

/** A string field of Edited; checked only when sent (a client may send back what it read). */
const EditedText = (example: string): PropertyDecorator =>
  applyDecorators(
    ApiPropertyOptional({ example }),
    ValidateIf((_: object, value: unknown) => value !== undefined),
    IsString(),
  );

/**
 * System fields set on create and modify; read-only on the wire (ignored when a client sends
 * them back, refused only when not of this shape: see ReadOnlyField).
 */
export class EditedDto {
  @EditedText('2026-11-22T10:00:00.000Z')
  CreateDate?: string;

  @EditedText('alice')
  CreatedBy?: string;

  @EditedText('2026-11-22T10:00:00.000Z')
  ModifiedDate?: string;

  @EditedText('alice')
  ModifiedBy?: string;
}
