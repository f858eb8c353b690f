import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ApiError } from '@app/shared';
import { ConfigBookkeeping } from '../../../common/config-bookkeeping.service';
import { editedOnCreate, nameKeyOf, repeatedNames } from '../../../picklists/entry-request';
import { CustomFieldChecks } from '../../custom-field-checks.service';
import { toStoredCustomField } from '../../custom-field.input';
import { toCustomFieldList } from '../../custom-field.mapper';
import { CustomFieldRepository } from '../../custom-field.repository';
import { CUSTOM_FIELD_KIND, type StoredCustomField } from '../../custom-field.schema';
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
      throw ApiError.badRequest(
        'The body must hold at least one definition in DateTimeFields, NumericFields, SelectListFields or TextFields',
      );
    }
    const problems = await this.checks.problems(clientId, fields);
    if (problems.length) throw ApiError.badRequest(problems.join('; '));

    const names = fields.map((field) => field.dto.Name.trim());
    const repeated = repeatedNames(names);
    if (repeated.length) {
      throw ApiError.conflict(
        `Custom field name "${repeated[0]}" is given more than once in the body`,
      );
    }
    const existing = await this.repository.existingNames(clientId, names.map(nameKeyOf));
    if (existing.length) throw ApiError.conflict(`Custom field "${existing[0]}" already exists`);

    const now = new Date();
    const claimed: { name: string; id: number }[] = [];
    const created: StoredCustomField[] = [];
    for (const [index, field] of fields.entries()) {
      const id = await this.bookkeeping.nextId(clientId, CUSTOM_FIELD_KIND);
      if (!(await this.bookkeeping.claimName(clientId, CUSTOM_FIELD_KIND, names[index], id))) {
        for (const claim of claimed) {
          await this.bookkeeping.releaseName(clientId, CUSTOM_FIELD_KIND, claim.name, claim.id);
        }
        throw ApiError.conflict(`Custom field "${names[index]}" already exists`);
      }
      claimed.push({ name: names[index], id });
      created.push(
        toStoredCustomField(field.type, field.dto, clientId, id, 1, editedOnCreate(userId, now)),
      );
    }
    await this.repository.insertAll(created);
    await this.bookkeeping.touch(clientId);
    return toCustomFieldList(created);
  }
}
