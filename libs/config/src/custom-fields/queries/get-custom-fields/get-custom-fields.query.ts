import { Query } from '@nestjs/cqrs';
import type { CustomFieldListDto } from '../../dto/custom-field.dto';

export class GetCustomFieldsQuery extends Query<CustomFieldListDto> {
  constructor(
    readonly clientId: string,
    /** 0: all definitions. */
    readonly fieldId: number,
    readonly locale?: string,
  ) {
    super();
  }
}
