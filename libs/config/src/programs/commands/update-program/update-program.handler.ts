import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ConflictError, InvalidInputError, parsePatchOperations } from '@app/shared';
import { ConfigBookkeeping } from '../../../common/config-bookkeeping.repository';
import { editedOnUpdate, patchedEntry } from '../../../common/entry-request';
import { saveWithRetry } from '../../../common/save-with-retry';
import {
  checkProgramInput,
  repeats,
  toStoredFilter,
  toStoredProgramFields,
} from '../../mapping/program-input';
import { FILTER_KIND, PROGRAM_KIND, type StoredFilter } from '../../domain/program.schema';
import { ProgramDto, type ProgramListDto } from '../../dto/program.dto';
import { toPatchableProgram } from '../../mapping/patchable';
import { toProgramDto } from '../../mapping/program.mapper';
import { ProgramRepository } from '../../repositories/program.repository';
import { RequiredConsents } from '../../services/required-consents.service';
import { UpdateProgramCommand } from './update-program.command';

@CommandHandler(UpdateProgramCommand)
export class UpdateProgramHandler implements ICommandHandler<UpdateProgramCommand> {
  constructor(
    private readonly programs: ProgramRepository,
    private readonly bookkeeping: ConfigBookkeeping,
    private readonly requiredConsents: RequiredConsents,
  ) {}

  async execute(command: UpdateProgramCommand): Promise<ProgramListDto> {
    const { clientId, userId, programId } = command;
    const operations = parsePatchOperations(command.operations);
    const { before, after } = await saveWithRetry({
      ...this.programs.revisionsOf(clientId, programId),
      names: this.bookkeeping.nameClaims(
        clientId,
        PROGRAM_KIND,
        programId,
        (name) => `Name "${name}" already belongs to another program`,
        (id) => this.programs.nameHeldBy(clientId, id),
      ),
      change: async (current) => {
        const body = patchedEntry(
          ProgramDto,
          toPatchableProgram(toProgramDto(current)),
          operations,
        );
        const problems = checkProgramInput(body, '');
        const filters = body.Filters ?? [];
        const byId = new Map(current.Filters.map((filter) => [filter.ID, filter]));
        const kept = new Set<number>();
        filters.forEach((filter, index) => {
          if (filter.ID === undefined || filter.ID === null) return;
          const id = filter.ID as unknown;
          if (typeof id !== 'number' || !byId.has(id)) {
            problems.push(
              `Invalid Filters[${index}].ID (value ${JSON.stringify(id)}): not a filter of program ${programId} (a new filter has no ID)`,
            );
          } else if (kept.has(id)) {
            problems.push(`Invalid Filters[${index}].ID (value ${id}): repeats another filter`);
          } else {
            kept.add(id);
          }
        });
        for (const filter of current.Filters) {
          if (!kept.has(filter.ID)) {
            problems.push(
              `Filter ${filter.ID} ("${filter.Name}") cannot be removed: set its IsActive to false instead`,
            );
          }
        }
        if (problems.length) throw new InvalidInputError(problems.join('; '));
        const conflicts = repeats(filters, 'Filters', 'Name', (filter) => filter.Name);
        if (conflicts.length) throw new ConflictError(conflicts.join('; '));

        const resolved = await this.requiredConsents.resolve(
          clientId,
          filters.map((filter, index) => ({
            path: `Filters[${index}].RequiredPreferenceConsents`,
            consents: filter.RequiredPreferenceConsents,
            current: byId.get(filter.ID as number)?.RequiredPreferenceConsents,
          })),
        );
        const stored: StoredFilter[] = [];
        for (const [index, filter] of filters.entries()) {
          const id =
            (filter.ID as number | undefined) ??
            (await this.bookkeeping.nextId(clientId, FILTER_KIND));
          stored.push(toStoredFilter(filter, id, resolved[index]));
        }
        return {
          ...current,
          ...toStoredProgramFields(body),
          Filters: stored,
          Edited: editedOnUpdate(current.Edited, userId, new Date()),
        };
      },
    });
    await this.bookkeeping.touch(clientId);
    await this.requiredConsents.recheck(clientId, RequiredConsents.added(before, after));
    return { Programs: [toProgramDto(after)] };
  }
}
