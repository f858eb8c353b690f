import { Query } from '@nestjs/cqrs';
import type { TypeListDto } from '../../dto/type-entry.dto';
import type { TypeKind } from '../../domain/type-kind';

/** The entries of a kind: all (`typeId` 0) or one; with `locale`, its localised fields only. */
export class ListTypesQuery extends Query<TypeListDto> {
  constructor(
    readonly clientId: string,
    readonly kind: TypeKind,
    readonly typeId: number,
    readonly locale?: string,
  ) {
    super();
  }
}
