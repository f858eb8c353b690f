import { Command } from '@nestjs/cqrs';
import type { PatchOperationDto } from '../../../common/patch-operation.dto';
import type { TypeListDto } from '../../dto/type-entry.dto';
import type { TypeKind } from '../../domain/type-kind';

/** Applies JSON Patch operations to one entry's wire shape. */
export class PatchTypeCommand extends Command<TypeListDto> {
  constructor(
    readonly clientId: string,
    readonly userId: string,
    readonly kind: TypeKind,
    readonly typeId: number,
    readonly operations: PatchOperationDto[],
  ) {
    super();
  }
}
