import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ConflictError } from '@app/shared';
import { ConfigBookkeeping } from '../../../common/config-bookkeeping.repository';
import { editedOnUpdate, refuseInvalidEntries } from '../../../common/entry-request';
import { saveWithRetry } from '../../../common/save-with-retry';
import { checkFilterInput, namesTaken, repeats, toStoredFilter } from '../../mapping/program-input';
import { FILTER_KIND, type StoredFilter } from '../../domain/program.schema';
import type { FilterListDto } from '../../dto/program.dto';
import { toFilterDto } from '../../mapping/program.mapper';
import { ProgramRepository } from '../../repositories/program.repository';
import { RequiredConsents } from '../../services/required-consents.service';
import { CreateFiltersCommand } from './create-filters.command';

@CommandHandler(CreateFiltersCommand)
export class CreateFiltersHandler implements ICommandHandler<CreateFiltersCommand> {
  constructor(
    private readonly programs: ProgramRepository,
    private readonly bookkeeping: ConfigBookkeeping,
    private readonly requiredConsents: RequiredConsents,
  ) {}

  async execute({
    clientId,
    userId,
    programId,
    filters,
  }: CreateFiltersCommand): Promise<FilterListDto> {
    refuseInvalidEntries('Filters', filters, checkFilterInput);
    const repeated = repeats(filters, 'Filters', 'Name', (filter) => filter.Name);
    if (repeated.length) throw new ConflictError(repeated.join('; '));

    let created: StoredFilter[] = [];
    const { before, after } = await saveWithRetry({
      ...this.programs.revisionsOf(clientId, programId),
      change: async (current) => {
        const taken = namesTaken(
          filters,
          'Filters',
          current.Filters,
          (filter) => `in program ${programId} (filter ${filter.ID})`,
        );
        if (taken.length) throw new ConflictError(taken.join('; '));
        const resolved = await this.requiredConsents.resolve(
          clientId,
          filters.map((filter, index) => ({
            path: `Filters[${index}].RequiredPreferenceConsents`,
            consents: filter.RequiredPreferenceConsents,
          })),
        );
        const ids = await this.bookkeeping.nextIds(clientId, FILTER_KIND, filters.length);
        created = filters.map((filter, index) =>
          toStoredFilter(filter, ids[index], resolved[index]),
        );
        return {
          ...current,
          Filters: [...current.Filters, ...created],
          Edited: editedOnUpdate(current.Edited, userId, new Date()),
        };
      },
    });
    await this.bookkeeping.touch(clientId);
    await this.requiredConsents.recheck(clientId, RequiredConsents.added(before, after));
    return { Filters: created.map((filter) => toFilterDto(filter, programId)) };
  }
}
