import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ApiError } from '@app/shared';
import { ConfigBookkeeping } from '../../../common/config-bookkeeping.service';
import { applyPatchOperations } from '../../../common/json-patch';
import type { StoredTypeEntry } from '../../domain/type-entry.schema';
import { checkTypeEntry } from '../../domain/type-entry.rules';
import { validateInput } from '../../domain/validate-input';
import { TypeEntryDto, type TypeListDto } from '../../dto/type-entry.dto';
import { toTypeEntryDto } from '../../mapping/type-entry.mapper';
import { TypeDefaultRepository } from '../../repositories/type-default.repository';
import { TypeEntryRepository, typeEntryKey } from '../../repositories/type-entry.repository';
import { normalizeTypeName, TYPE_KIND_INFO, type TypeKind } from '../../type-kind';
import { PatchTypeCommand } from './patch-type.command';

/** Fields a patch may not touch (the 400 names them). */
export const READ_ONLY_TYPE_FIELDS = ['TypeId', 'Edited'];

/** Saves lost to concurrent writers are redone on the fresh entry up to this many times. */
const MAX_ATTEMPTS = 20;

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
    for (let attempt = 1; ; attempt++) {
      const stored = await this.entries.findOne(clientId, kind, typeId);
      if (!stored) throw ApiError.notFound(`${label} ${typeId} was not found`);
      const defaultTypeId = await this.defaults.get(clientId, kind);

      // The operations apply to the wire shape, on a copy: any failure changes nothing.
      const patched = applyPatchOperations(
        toTypeEntryDto(stored, defaultTypeId),
        operations,
        READ_ONLY_TYPE_FIELDS,
      );
      const entry = validateInput(TypeEntryDto, patched, 'The patched entry');
      const problems = checkTypeEntry(entry, '');
      if (problems.length) throw ApiError.badRequest(problems.join('; '));

      const name = entry.TypeName.trim();
      const nameKey = normalizeTypeName(name);
      const renamed = nameKey !== stored.nameKey;
      if (renamed && !(await this.bookkeeping.claimName(clientId, kind, name, typeId))) {
        throw ApiError.conflict(`${label} "${name}" already exists`);
      }
      const revision = stored.revision + 1;
      const next: StoredTypeEntry = {
        ...stored,
        _id: typeEntryKey(clientId, kind, typeId, revision),
        revision,
        current: true,
        TypeName: name,
        nameKey,
        LocalizedFields: entry.LocalizedFields.map((field) => ({
          Locale: field.Locale,
          Name: field.Name,
          ...(field.Description != null ? { Description: field.Description } : {}),
        })),
        IsActive: entry.IsActive !== false,
        Edited: {
          ...stored.Edited,
          ModifiedDate: new Date().toISOString(),
          ModifiedBy: userId,
        },
      };
      if (!(await this.entries.insertRevision(next))) {
        // Another writer saved the entry first: drop the new name (unless the other writer
        // made the same rename), then start over on the fresh entry.
        if (renamed) await this.releaseUnlessCurrent(clientId, kind, typeId, name);
        if (attempt >= MAX_ATTEMPTS) {
          throw ApiError.conflict(`${label} ${typeId} is being changed by another request; retry`);
        }
        continue;
      }
      await this.entries.supersedeBefore(clientId, kind, typeId, revision);
      if (renamed) await this.releaseUnlessCurrent(clientId, kind, typeId, stored.TypeName);

      const isDefault = entry.IsDefault === true;
      if (isDefault && defaultTypeId !== typeId) {
        await this.defaults.set(clientId, kind, typeId);
      } else if (!isDefault && defaultTypeId === typeId) {
        await this.defaults.clearIf(clientId, kind, typeId);
      }
      await this.bookkeeping.touch(clientId);
      return { [kind]: [toTypeEntryDto(next, isDefault ? typeId : null)] };
    }
  }

  /**
   * Releases the entry's claim on `name` unless its latest revision has that name again
   * (a concurrent patch may have renamed it back while it still held the claim).
   */
  private async releaseUnlessCurrent(
    clientId: string,
    kind: TypeKind,
    typeId: number,
    name: string,
  ): Promise<void> {
    const fresh = await this.entries.findOne(clientId, kind, typeId);
    if (fresh?.nameKey === normalizeTypeName(name)) return;
    await this.bookkeeping.releaseName(clientId, kind, name, typeId);
  }
}
