import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import {
  applyPatchOperations,
  ConflictError,
  InvalidInputError,
  NotFoundError,
  textKey,
  parsePatchOperations,
} from '@app/shared';
import { ConfigBookkeeping } from '../../../common/config-bookkeeping.repository';
import { editedOnUpdate, validateInput } from '../../../common/entry-request';
import { saveWithRetry } from '../../../common/save-with-retry';
import { checkFilterInput, toStoredFilter } from '../../mapping/program-input';
import type { StoredFilter } from '../../domain/program.schema';
import { FilterDto, type FilterListDto } from '../../dto/program.dto';
import { toPatchableFilter } from '../../mapping/patchable';
import { toFilterDto } from '../../mapping/program.mapper';
import { ProgramRepository } from '../../repositories/program.repository';
import { RequiredConsents } from '../../services/required-consents.service';
import { UpdateFilterCommand } from './update-filter.command';

@CommandHandler(UpdateFilterCommand)
export class UpdateFilterHandler implements ICommandHandler<UpdateFilterCommand> {
  constructor(
    private readonly programs: ProgramRepository,
    private readonly bookkeeping: ConfigBookkeeping,
    private readonly requiredConsents: RequiredConsents,
  ) {}

  async execute(command: UpdateFilterCommand): Promise<FilterListDto> {
    const { clientId, userId, filterId, change } = command;
    const operations = 'operations' in change ? parsePatchOperations(change.operations) : undefined;
    let updated: StoredFilter | undefined;
    const { before, after } = await saveWithRetry({
      what: `Filter ${filterId}`,
      notFound: `Filter ${filterId} was not found`,
      load: () => this.programs.findByFilterId(clientId, filterId),
      save: (next, revision) => this.programs.saveNextRevision(next, revision),
      change: async (current) => {
        const index = current.Filters.findIndex((filter) => filter.ID === filterId);
        if (index < 0) throw new NotFoundError(`Filter ${filterId} was not found`);
        const stored = current.Filters[index];
        const wire = toPatchableFilter(toFilterDto(stored, current.programId));
        const patched = operations
          ? applyPatchOperations(wire, operations, ['ID', 'ProgramID'])
          : {
              ...wire,
              RequiredPreferenceConsents:
                'requiredConsents' in change ? change.requiredConsents : [],
            };
        const body = validateInput(FilterDto, patched, 'The patched entry');
        const problems = checkFilterInput(body, '');
        if (problems.length) throw new InvalidInputError(problems.join('; '));
        const clash = current.Filters.find(
          (filter) => filter.ID !== filterId && textKey(filter.Name) === textKey(body.Name),
        );
        if (clash) {
          throw new ConflictError(
            `Name "${body.Name}" already belongs to filter ${clash.ID} of program ${current.programId}`,
          );
        }
        const [consents] = await this.requiredConsents.resolve(clientId, [
          {
            path: 'RequiredPreferenceConsents',
            consents: body.RequiredPreferenceConsents,
            current: stored.RequiredPreferenceConsents,
          },
        ]);
        updated = toStoredFilter(body, filterId, consents);
        const filters = [...current.Filters];
        filters[index] = updated;
        return {
          ...current,
          Filters: filters,
          Edited: editedOnUpdate(current.Edited, userId, new Date()),
        };
      },
    });
    await this.bookkeeping.touch(clientId);
    await this.requiredConsents.recheck(clientId, RequiredConsents.added(before, after));
    return { Filters: [toFilterDto(updated as StoredFilter, after.programId)] };
  }
}
