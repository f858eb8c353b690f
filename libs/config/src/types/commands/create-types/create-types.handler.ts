import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ConflictError, InvalidInputError, textKey } from '@app/shared';
import { ConfigBookkeeping } from '../../../common/config-bookkeeping.repository';
import { editedOnCreate } from '../../../common/entry-request';
import type { StoredTypeEntry } from '../../domain/type-entry.schema';
import { checkTypeEntries, findRepeatedNames } from '../../domain/type-entry.rules';
import type { TypeListDto } from '../../dto/type-entry.dto';
import { toTypeEntryDto } from '../../mapping/type-entry.mapper';
import { TypeDefaultRepository } from '../../repositories/type-default.repository';
import { TypeEntryRepository, typeEntryKey } from '../../repositories/type-entry.repository';
import { TYPE_KIND_INFO } from '../../domain/type-kind';
import { CreateTypesCommand } from './create-types.command';

@CommandHandler(CreateTypesCommand)
export class CreateTypesHandler implements ICommandHandler<CreateTypesCommand> {
  constructor(
    private readonly entries: TypeEntryRepository,
    private readonly defaults: TypeDefaultRepository,
    private readonly bookkeeping: ConfigBookkeeping,
  ) {}

  async execute({ clientId, userId, kind, entries }: CreateTypesCommand): Promise<TypeListDto> {
    // Everything is checked before anything is stored: all or nothing.
    const invalid = checkTypeEntries(entries, kind);
    if (invalid.length) throw new InvalidInputError(invalid.join('; '));
    const repeated = findRepeatedNames(entries, kind);
    if (repeated.length) throw new ConflictError(repeated.join('; '));
    const existing = await this.entries.findByNameKeys(
      clientId,
      kind,
      entries.map((entry) => textKey(entry.TypeName)),
    );
    if (existing.length) {
      throw new ConflictError(
        existing
          .map(
            (entry) =>
              `${TYPE_KIND_INFO[kind].label} "${entry.TypeName}" already exists (TypeId ${entry.typeId})`,
          )
          .join('; '),
      );
    }

    const names = entries.map((entry) => entry.TypeName.trim());
    const ids = await this.bookkeeping.claimNewEntries(
      clientId,
      kind,
      names,
      (index) => `${TYPE_KIND_INFO[kind].label} "${names[index]}" already exists`,
      (id) => this.entries.findOne(clientId, kind, id).then((entry) => entry?.TypeName ?? null),
    );
    const edited = editedOnCreate(userId, new Date());
    const stored: StoredTypeEntry[] = entries.map((entry, index) => ({
      _id: typeEntryKey(clientId, kind, ids[index], 1),
      clientId,
      kind,
      typeId: ids[index],
      revision: 1,
      current: true,
      TypeName: names[index],
      nameKey: textKey(names[index]),
      LocalizedFields: entry.LocalizedFields.map((field) => ({
        Locale: field.Locale,
        Name: field.Name,
        ...(field.Description != null ? { Description: field.Description } : {}),
      })),
      IsActive: entry.IsActive !== false,
      Edited: edited,
    }));
    try {
      await this.entries.insertAll(kind, stored);
    } catch (error) {
      await this.entries.removeUnanswered(clientId, kind, ids);
      await this.bookkeeping.releaseNames(clientId, kind, names, ids);
      throw error;
    }

    // A new default takes the flag from the entry that had it (one pointer per kind).
    const defaultIndex = entries.findIndex((entry) => entry.IsDefault === true);
    const defaultTypeId = defaultIndex >= 0 ? stored[defaultIndex].typeId : null;
    if (defaultTypeId !== null) await this.defaults.set(clientId, kind, defaultTypeId);
    await this.bookkeeping.touch(clientId);
    return { [kind]: stored.map((entry) => toTypeEntryDto(entry, defaultTypeId)) };
  }
}
