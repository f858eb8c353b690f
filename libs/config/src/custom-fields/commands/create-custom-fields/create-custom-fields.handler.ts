import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { InvalidInputError } from '@app/shared';
import { ConfigBookkeeping } from '../../../common/config-bookkeeping.repository';
import { editedOnCreate } from '../../../common/entry-request';
import { CustomFieldChecks } from '../../services/custom-field-checks.service';
import { toStoredCustomField } from '../../mapping/custom-field.input';
import { toCustomFieldList } from '../../mapping/custom-field.mapper';
import { CustomFieldRepository } from '../../repositories/custom-field.repository';
import type { CustomFieldListDto } from '../../dto/custom-field.dto';
import { CreateCustomFieldsCommand } from './create-custom-fields.command';

/** Creates every definition of the body or none: all rules and names are checked first. */
@CommandHandler(CreateCustomFieldsCommand)
export class CreateCustomFieldsHandler implements ICommandHandler<CreateCustomFieldsCommand> {
  constructor(
    private readonly repository: CustomFieldRepository,
    private readonly checks: CustomFieldChecks,
    private readonly bookkeeping: ConfigBookkeeping,
  ) {}

  async execute({
    clientId,
    userId,
    fields,
  }: CreateCustomFieldsCommand): Promise<CustomFieldListDto> {
    if (fields.length === 0) {
      throw new InvalidInputError(
        'The body must hold at least one definition in DateTimeFields, NumericFields, SelectListFields or TextFields',
      );
    }
    await this.checks.refuseInvalid(clientId, fields);

    const names = fields.map((field) => field.dto.Name.trim());
    const ids = await this.bookkeeping.claimUniqueNames(clientId, names, this.repository);
    const edited = editedOnCreate(userId, new Date());
    const created = fields.map((field, index) =>
      toStoredCustomField(field.type, field.dto, clientId, ids[index], 1, edited),
    );
    await this.repository.insertAll(created);
    await this.bookkeeping.touch(clientId);
    return toCustomFieldList(created);
  }
}
