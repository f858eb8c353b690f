import { Command } from '@nestjs/cqrs';
import type { TypeEntryDto, TypeListDto } from '../../dto/type-entry.dto';
import type { TypeKind } from '../../domain/type-kind';

/** Creates all the entries of a body, or none. */
export class CreateTypesCommand extends Command<TypeListDto> {
  constructor(
    readonly clientId: string,
    readonly userId: string,
    readonly kind: TypeKind,
    readonly entries: TypeEntryDto[],
  ) {
    super();
  }
}
