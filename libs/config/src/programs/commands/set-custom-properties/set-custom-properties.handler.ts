import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { InvalidInputError, NotFoundError, textKey } from '@app/shared';
import { ConfigBookkeeping } from '../../../common/config-bookkeeping.repository';
import { editedOnUpdate, validateArray } from '../../../common/entry-request';
import { saveWithRetry } from '../../../common/save-with-retry';
import { repeats } from '../../mapping/program-input';
import type { StoredKeyValue } from '../../domain/program.schema';
import { CustomPropertiesChangeDto } from '../../dto/custom-properties-request.dto';
import { toProgramGroupDto } from '../../mapping/program-group.mapper';
import { toFilterDto, toProgramDto } from '../../mapping/program.mapper';
import { ProgramGroupRepository } from '../../repositories/program-group.repository';
import { ProgramRepository } from '../../repositories/program.repository';
import {
  CUSTOM_PROPERTY_ENTITIES,
  type CustomPropertiesResult,
  type CustomPropertyEntity,
  SetCustomPropertiesCommand,
} from './set-custom-properties.command';

/** Adds the properties; an existing key (case-insensitive) changes only with OverwriteExisting. */
function merge(current: StoredKeyValue[], change: CustomPropertiesChangeDto): StoredKeyValue[] {
  const result = current.map((property) => ({ ...property }));
  for (const property of change.CustomProperties) {
    const existing = result.find((stored) => textKey(stored.Key) === textKey(property.Key));
    if (!existing) {
      result.push({ Key: property.Key.trim(), Value: property.Value ?? undefined });
    } else if (property.OverwriteExisting === true) {
      existing.Value = property.Value ?? undefined;
    }
  }
  return result;
}

@CommandHandler(SetCustomPropertiesCommand)
export class SetCustomPropertiesHandler implements ICommandHandler<SetCustomPropertiesCommand> {
  constructor(
    private readonly programs: ProgramRepository,
    private readonly groups: ProgramGroupRepository,
    private readonly bookkeeping: ConfigBookkeeping,
  ) {}

  async execute(command: SetCustomPropertiesCommand): Promise<CustomPropertiesResult> {
    const { clientId, userId } = command;
    const entity = CUSTOM_PROPERTY_ENTITIES.find(
      (name) => name.toLowerCase() === command.entity.toLowerCase(),
    );
    if (!entity) {
      throw new NotFoundError(
        `Unknown entity "${command.entity}": custom properties are set on ${CUSTOM_PROPERTY_ENTITIES.join(', ')}`,
      );
    }
    const changes = validateArray(CustomPropertiesChangeDto, command.body, {
      item: (i) => `[${i}]`,
    });
    const problems = [
      ...changes.flatMap((change, index) =>
        repeats(change.CustomProperties, `[${index}].CustomProperties`, 'Key', (p) => p.Key),
      ),
      ...repeats(changes, '', 'ID', (change) => String(change.ID)),
    ];
    if (problems.length) throw new InvalidInputError(problems.join('; '));
    await this.checkExistence(clientId, entity, changes);

    const now = new Date();
    const results = [];
    for (const change of changes) {
      if (entity === 'ProgramGroup') {
        const { after } = await saveWithRetry({
          ...this.groups.revisionsOf(clientId, change.ID),
          change: async (current) => ({
            ...current,
            CustomProperties: merge(current.CustomProperties, change),
            Edited: editedOnUpdate(current.Edited, userId, now),
          }),
        });
        results.push(toProgramGroupDto(after));
        continue;
      }
      const { after } = await saveWithRetry({
        what: `${entity} ${change.ID}`,
        notFound: `${entity} ${change.ID} was not found`,
        load: () =>
          entity === 'Program'
            ? this.programs.findById(clientId, change.ID)
            : this.programs.findByFilterId(clientId, change.ID),
        save: (next, revision) => this.programs.saveNextRevision(next, revision),
        change: async (current) =>
          entity === 'Program'
            ? {
                ...current,
                CustomProperties: merge(current.CustomProperties, change),
                Edited: editedOnUpdate(current.Edited, userId, now),
              }
            : {
                ...current,
                Filters: current.Filters.map((filter) =>
                  filter.ID === change.ID
                    ? { ...filter, CustomProperties: merge(filter.CustomProperties, change) }
                    : filter,
                ),
                Edited: editedOnUpdate(current.Edited, userId, now),
              },
      });
      results.push(
        entity === 'Program'
          ? toProgramDto(after)
          : toFilterDto(
              after.Filters.find((f) => f.ID === change.ID)!,
              after.programId,
            ),
      );
    }
    await this.bookkeeping.touch(clientId);
    if (entity === 'Program') return { Programs: results as ReturnType<typeof toProgramDto>[] };
    if (entity === 'Filter') return { Filters: results as ReturnType<typeof toFilterDto>[] };
    return { ProgramGroups: results as ReturnType<typeof toProgramGroupDto>[] };
  }

  /** 404 naming every id of the body the client does not have, before anything changes. */
  private async checkExistence(
    clientId: string,
    entity: CustomPropertyEntity,
    changes: CustomPropertiesChangeDto[],
  ): Promise<void> {
    let known: Set<number>;
    if (entity === 'ProgramGroup') {
      known = new Set((await this.groups.listAll(clientId)).map((group) => group.groupId));
    } else {
      const programs = await this.programs.listAll(clientId);
      known = new Set(
        entity === 'Program'
          ? programs.map((program) => program.programId)
          : programs.flatMap((program) => program.Filters.map((filter) => filter.ID)),
      );
    }
    const missing = changes.filter((change) => !known.has(change.ID)).map((change) => change.ID);
    if (missing.length) {
      const label = entity === 'ProgramGroup' ? 'Program group' : entity;
      throw new NotFoundError(`${label} ${missing.join(', ')} was not found`);
    }
  }
}
