import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ApiError } from '@app/shared';
import { ConfigBookkeeping } from '../../../common/config-bookkeeping.service';
import type { StoredTypeEntry } from '../../domain/type-entry.schema';
import { checkTypeEntries, findRepeatedNames } from '../../domain/type-entry.rules';
import type { TypeEntryDto, TypeListDto } from '../../dto/type-entry.dto';
import { toTypeEntryDto } from '../../mapping/type-entry.mapper';
import { TypeDefaultRepository } from '../../repositories/type-default.repository';
import { TypeEntryRepository, typeEntryKey } from '../../repositories/type-entry.repository';
import { normalizeTypeName, TYPE_KIND_INFO, type TypeKind } from '../../type-kind';
import { CreateTypesCommand } from './create-types.command';

interface Claimed {
  typeId: number;
  name: string;
}

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
    if (invalid.length) throw ApiError.badRequest(invalid.join('; '));
    const repeated = findRepeatedNames(entries, kind);
    if (repeated.length) throw ApiError.conflict(repeated.join('; '));
    const existing = await this.entries.findByNameKeys(
      clientId,
      kind,
      entries.map((entry) => normalizeTypeName(entry.TypeName)),
    );
    if (existing.length) {
      throw ApiError.conflict(
        existing
          .map(
            (entry) =>
              `${TYPE_KIND_INFO[kind].label} "${entry.TypeName}" already exists (TypeId ${entry.typeId})`,
          )
          .join('; '),
      );
    }

    const claimed = await this.claimAll(clientId, kind, entries);
    const now = new Date().toISOString();
    const stored: StoredTypeEntry[] = entries.map((entry, index) => ({
      _id: typeEntryKey(clientId, kind, claimed[index].typeId, 1),
      clientId,
      kind,
      typeId: claimed[index].typeId,
      revision: 1,
      current: true,
      TypeName: claimed[index].name,
      nameKey: normalizeTypeName(claimed[index].name),
      LocalizedFields: entry.LocalizedFields.map((field) => ({
        Locale: field.Locale,
        Name: field.Name,
        ...(field.Description != null ? { Description: field.Description } : {}),
      })),
      IsActive: entry.IsActive !== false,
      Edited: { CreateDate: now, CreatedBy: userId, ModifiedDate: now, ModifiedBy: userId },
    }));
    const inserted: number[] = [];
    try {
      for (const entry of stored) {
        // The id is claimed (ConfigBookkeeping.nextId), so its first revision cannot exist.
        if (!(await this.entries.insertRevision(entry))) {
          throw new Error(`${kind} ${entry.typeId} of ${clientId} exists although its id was free`);
        }
        inserted.push(entry.typeId);
      }
    } catch (error) {
      await this.entries.removeUnanswered(clientId, kind, inserted);
      await this.releaseAll(clientId, kind, claimed);
      throw error;
    }

    // A new default takes the flag from the entry that had it (one pointer per kind).
    const defaultIndex = entries.findIndex((entry) => entry.IsDefault === true);
    const defaultTypeId = defaultIndex >= 0 ? stored[defaultIndex].typeId : null;
    if (defaultTypeId !== null) await this.defaults.set(clientId, kind, defaultTypeId);
    await this.bookkeeping.touch(clientId);
    return { [kind]: stored.map((entry) => toTypeEntryDto(entry, defaultTypeId)) };
  }

  /** Takes an id and claims the name of each entry; on a name taken meanwhile, 409 and no claim kept. */
  private async claimAll(
    clientId: string,
    kind: TypeKind,
    entries: TypeEntryDto[],
  ): Promise<Claimed[]> {
    const claimed: Claimed[] = [];
    for (const entry of entries) {
      const name = entry.TypeName.trim();
      const typeId = await this.bookkeeping.nextId(clientId, kind);
      if (!(await this.bookkeeping.claimName(clientId, kind, name, typeId))) {
        await this.releaseAll(clientId, kind, claimed);
        throw ApiError.conflict(`${TYPE_KIND_INFO[kind].label} "${name}" already exists`);
      }
      claimed.push({ typeId, name });
    }
    return claimed;
  }

  private async releaseAll(clientId: string, kind: TypeKind, claimed: Claimed[]): Promise<void> {
    for (const { typeId, name } of claimed) {
      await this.bookkeeping.releaseName(clientId, kind, name, typeId);
    }
  }
}
