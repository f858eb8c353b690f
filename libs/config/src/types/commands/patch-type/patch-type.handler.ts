import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { applyPatchOperations, InvalidInputError, textKey } from '@app/shared';
import { ConfigBookkeeping } from '../../../common/config-bookkeeping.repository';
import { editedOnUpdate, refuseRename, validateInput } from '../../../common/entry-request';
import { saveWithRetry } from '../../../common/save-with-retry';
import { checkTypeEntry } from '../../domain/type-entry.rules';
import { TypeEntryDto, type TypeListDto } from '../../dto/type-entry.dto';
import { toTypeEntryDto } from '../../mapping/type-entry.mapper';
import { TypeDefaultRepository } from '../../repositories/type-default.repository';
import { TypeEntryRepository, typeEntryKey } from '../../repositories/type-entry.repository';
import { TYPE_KIND_INFO } from '../../domain/type-kind';
import { PatchTypeCommand } from './patch-type.command';

/** Fields a patch may not touch (the 400 names them). */
export const READ_ONLY_TYPE_FIELDS = ['TypeId', 'Edited'];

@CommandHandler(PatchTypeCommand)
export class PatchTypeHandler implements ICommandHandler<PatchTypeCommand> {
  constructor(
    private readonly entries: TypeEntryRepository,
    private readonly defaults: TypeDefaultRepository,
    private readonly bookkeeping: ConfigBookkeeping,
  ) {}

  async execute(command: PatchTypeCommand): Promise<TypeListDto> {
    const { clientId, userId, kind, typeId, operations } = command;
    const label = TYPE_KIND_INFO[kind].label;
    let defaultTypeId: number | null = null;
    let isDefault = false;
    const { after } = await saveWithRetry({
      what: `${label} ${typeId}`,
      notFound: `${label} ${typeId} was not found`,
      load: () => this.entries.findOne(clientId, kind, typeId),
      save: (next) => this.entries.saveRevision(next),
      change: async (stored) => {
        defaultTypeId = await this.defaults.get(clientId, kind);
        // The operations apply to the wire shape, on a copy: any failure changes nothing.
        const patched = applyPatchOperations(
          toTypeEntryDto(stored, defaultTypeId),
          operations,
          READ_ONLY_TYPE_FIELDS,
        );
        const entry = validateInput(TypeEntryDto, patched, 'The patched entry', {
          firstErrorOnly: true,
        });
        const problems = checkTypeEntry(entry, '');
        if (problems.length) throw new InvalidInputError(problems.join('; '));
        refuseRename('TypeName', stored.TypeName, entry.TypeName, {
          entry: label.toLowerCase(),
          labels: 'LocalizedFields',
        });
        isDefault = entry.IsDefault === true;
        const name = entry.TypeName.trim();
        const revision = stored.revision + 1;
        return {
          ...stored,
          _id: typeEntryKey(clientId, kind, typeId, revision),
          revision,
          current: true,
          TypeName: name,
          nameKey: textKey(name),
          LocalizedFields: entry.LocalizedFields.map((field) => ({
            Locale: field.Locale,
            Name: field.Name,
            ...(field.Description != null ? { Description: field.Description } : {}),
          })),
          IsActive: entry.IsActive !== false,
          Edited: editedOnUpdate(stored.Edited, userId, new Date()),
        };
      },
    });

    if (isDefault && defaultTypeId !== typeId) {
      await this.defaults.set(clientId, kind, typeId);
    } else if (!isDefault && defaultTypeId === typeId) {
      await this.defaults.clearIf(clientId, kind, typeId);
    }
    await this.bookkeeping.touch(clientId);
    return { [kind]: [toTypeEntryDto(after, isDefault ? typeId : null)] };
  }
}
