import { Command } from '@nestjs/cqrs';
import type { CustomFieldInput } from '../../services/custom-field-checks.service';
import type { CustomFieldListDto } from '../../dto/custom-field.dto';

export class CreateCustomFieldsCommand extends Command<CustomFieldListDto> {
  constructor(
    readonly clientId: string,
    readonly userId: string,
    readonly fields: CustomFieldInput[],
  ) {
    super();
  }
}
