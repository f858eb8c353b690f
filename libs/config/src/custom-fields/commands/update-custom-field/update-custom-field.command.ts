import { Command } from '@nestjs/cqrs';
import type { PatchOperationDto } from '../../../common/patch-operation.dto';
import type { CustomFieldType } from '../../domain/custom-field-value';
import type { CustomFieldListDto } from '../../dto/custom-field.dto';

export class UpdateCustomFieldCommand extends Command<CustomFieldListDto> {
  constructor(
    readonly clientId: string,
    readonly userId: string,
    readonly fieldType: CustomFieldType,
    readonly fieldId: number,
    readonly operations: PatchOperationDto[],
  ) {
    super();
  }
}
