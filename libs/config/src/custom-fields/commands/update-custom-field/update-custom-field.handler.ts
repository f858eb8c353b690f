import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ConfigBookkeeping } from '../../../common/config-bookkeeping.repository';
import { editedOnUpdate, patchedEntry, refuseRename } from '../../../common/entry-request';
import { saveWithRetry } from '../../../common/save-with-retry';
import { CustomFieldChecks } from '../../services/custom-field-checks.service';
import { DTO_CLASS, toStoredCustomField } from '../../mapping/custom-field.input';
import { toCustomFieldDto, toCustomFieldList } from '../../mapping/custom-field.mapper';
import { CustomFieldRepository } from '../../repositories/custom-field.repository';
import type { CustomFieldListDto } from '../../dto/custom-field.dto';
import { UpdateCustomFieldCommand } from './update-custom-field.command';

/**
 * Applies JSON Patch operations to the definition's wire shape, validates the result like
 * a create of its type, and stores it as the next revision (saveWithRetry).
 */
@CommandHandler(UpdateCustomFieldCommand)
export class UpdateCustomFieldHandler implements ICommandHandler<UpdateCustomFieldCommand> {
  constructor(
    private readonly repository: CustomFieldRepository,
    private readonly checks: CustomFieldChecks,
    private readonly bookkeeping: ConfigBookkeeping,
  ) {}

  async execute({
    clientId,
    userId,
    fieldType,
    fieldId,
    operations,
  }: UpdateCustomFieldCommand): Promise<CustomFieldListDto> {
    const { after } = await saveWithRetry({
      what: `Custom field ${fieldId}`,
      notFound: `${fieldType} custom field ${fieldId} was not found`,
      // A definition of another type is not found under this type's route.
      load: async () => {
        const stored = await this.repository.findOne(clientId, fieldId);
        return stored?.fieldType === fieldType ? stored : null;
      },
      save: (next) => this.repository.saveRevision(next),
      change: async (stored) => {
        const dto = patchedEntry(DTO_CLASS[fieldType], toCustomFieldDto(stored), operations);
        refuseRename('Name', stored.Name, dto.Name, {
          entry: 'custom field',
          labels: 'LocalizedDisplayNames',
        });
        await this.checks.refuseInvalid(clientId, [{ type: fieldType, dto, path: '' }]);
        return toStoredCustomField(
          fieldType,
          dto,
          clientId,
          fieldId,
          stored.revision + 1,
          editedOnUpdate(stored.Edited, userId, new Date()),
        );
      },
    });
    await this.bookkeeping.touch(clientId);
    return toCustomFieldList([after]);
  }
}
