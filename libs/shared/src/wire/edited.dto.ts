import { ApiPropertyOptional } from '@nestjs/swagger';

/** System fields set on create and modify; read-only on the wire. */
export class EditedDto {
  @ApiPropertyOptional({ example: '2026-11-22T10:00:00.000Z' })
  CreateDate?: string;

  @ApiPropertyOptional({ example: 'alice' })
  CreatedBy?: string;

  @ApiPropertyOptional({ example: '2026-11-22T10:00:00.000Z' })
  ModifiedDate?: string;

  @ApiPropertyOptional({ example: 'alice' })
  ModifiedBy?: string;
}
