import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ApiError } from '@app/shared';
import { ConfigBookkeeping } from '../../../common/config-bookkeeping.service';
import { applyPatchOperations } from '../../../common/json-patch';
import {
  editedOnUpdate,
  nameKeyOf,
  SAVE_ATTEMPTS,
  validateEntry,
} from '../../../picklists/entry-request';
import { CustomFieldChecks } from '../../custom-field-checks.service';
import { DTO_CLASS, toStoredCustomField } from '../../custom-field.input';
import { toCustomFieldDto, toCustomFieldList } from '../../custom-field.mapper';
import { CustomFieldRepository } from '../../custom-field.repository';
import { CUSTOM_FIELD_KIND } from '../../custom-field.schema';
import type { CustomFieldListDto } from '../../dto/custom-field.dto';
import { UpdateCustomFieldCommand } from './update-custom-field.command';

/**
 * Applies JSON Patch operations to the definition's wire shape, validates the result like
 * a create of its type, and stores it as the next revision unless another writer stored that
 * revision first (then starts over on the fresh revision).
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
    for (let attempt = 0; attempt < SAVE_ATTEMPTS; attempt++) {
      const stored = await this.repository.findOne(clientId, fieldId);
      if (!stored || stored.fieldType !== fieldType) {
        throw ApiError.notFound(`${fieldType} custom field ${fieldId} was not found`);
      }
      const patched = applyPatchOperations(toCustomFieldDto(stored), operations, ['Id', 'Edited']);
      const dto = await validateEntry(DTO_CLASS[fieldType], patched);
      const problems = await this.checks.problems(clientId, [{ type: fieldType, dto, path: '' }]);
      if (problems.length) throw ApiError.badRequest(problems.join('; '));

      const name = dto.Name.trim();
      const renamed = nameKeyOf(name) !== stored.nameKey;
      if (
        renamed &&
        !(await this.bookkeeping.claimName(clientId, CUSTOM_FIELD_KIND, name, fieldId))
      ) {
        throw ApiError.conflict(`Custom field "${name}" already exists`);
      }
      const next = toStoredCustomField(
        fieldType,
        dto,
        clientId,
        fieldId,
        stored.revision + 1,
        editedOnUpdate(stored.Edited, userId, new Date()),
      );
      if (await this.repository.saveRevision(next)) {
        if (renamed) {
          await this.bookkeeping.releaseName(clientId, CUSTOM_FIELD_KIND, stored.Name, fieldId);
        }
        await this.bookkeeping.touch(clientId);
        return toCustomFieldList([next]);
      }
      // Another writer saved first: give up the new name unless that writer took it too.
      const now = await this.repository.findOne(clientId, fieldId);
      if (renamed && now?.nameKey !== nameKeyOf(name)) {
        await this.bookkeeping.releaseName(clientId, CUSTOM_FIELD_KIND, name, fieldId);
      }
    }
    throw ApiError.conflict(`Custom field ${fieldId} is being changed by others; retry`);
  }
}
