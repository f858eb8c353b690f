import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { NotFoundError } from '@app/shared';
import { selectLocalized } from '../../../common/locale-selection';
import type { TypeListDto } from '../../dto/type-entry.dto';
import { toTypeEntryDto } from '../../mapping/type-entry.mapper';
import { TypeDefaultRepository } from '../../repositories/type-default.repository';
import { TypeEntryRepository } from '../../repositories/type-entry.repository';
import { TYPE_KIND_INFO } from '../../domain/type-kind';
import { ListTypesQuery } from './list-types.query';

@QueryHandler(ListTypesQuery)
export class ListTypesHandler implements IQueryHandler<ListTypesQuery> {
  constructor(
    private readonly entries: TypeEntryRepository,
    private readonly defaults: TypeDefaultRepository,
  ) {}

  async execute({ clientId, kind, typeId, locale }: ListTypesQuery): Promise<TypeListDto> {
    const [stored, defaultTypeId] = await Promise.all([
      typeId
        ? this.entries.findOne(clientId, kind, typeId).then((one) => (one ? [one] : []))
        : this.entries.list(clientId, kind),
      this.defaults.get(clientId, kind),
    ]);
    if (typeId && !stored.length) {
      throw new NotFoundError(`${TYPE_KIND_INFO[kind].label} ${typeId} was not found`);
    }
    let answer = stored.map((entry) => toTypeEntryDto(entry, defaultTypeId));
    if (locale !== undefined) {
      answer = answer.map((entry) => ({
        ...entry,
        LocalizedFields: selectLocalized(entry.LocalizedFields, locale),
      }));
      if (!answer.some((entry) => entry.LocalizedFields.length)) {
        throw new NotFoundError(
          `No ${kind} entry${typeId ? ` with TypeId ${typeId}` : ''} has localized fields for locale "${locale}"`,
        );
      }
    }
    return { [kind]: answer };
  }
}
