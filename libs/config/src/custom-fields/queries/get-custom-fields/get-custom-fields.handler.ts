import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { NotFoundError } from '@app/shared';
import { toCustomFieldList } from '../../mapping/custom-field.mapper';
import { CustomFieldRepository } from '../../repositories/custom-field.repository';
import type { CustomFieldListDto } from '../../dto/custom-field.dto';
import { GetCustomFieldsQuery } from './get-custom-fields.query';

@QueryHandler(GetCustomFieldsQuery)
export class GetCustomFieldsHandler implements IQueryHandler<GetCustomFieldsQuery> {
  constructor(private readonly repository: CustomFieldRepository) {}

  async execute({ clientId, fieldId, locale }: GetCustomFieldsQuery): Promise<CustomFieldListDto> {
    const stored = await this.repository.listOrOne(clientId, fieldId, 'Custom field');
    const list = toCustomFieldList(stored, locale);
    if (locale !== undefined) {
      const any = Object.values(list).some((fields: { LocalizedDisplayNames: unknown[] }[]) =>
        fields.some((field) => field.LocalizedDisplayNames.length > 0),
      );
      if (!any) {
        throw new NotFoundError(
          `No custom field has localized display names for locale "${locale}"`,
        );
      }
    }
    return list;
  }
}
