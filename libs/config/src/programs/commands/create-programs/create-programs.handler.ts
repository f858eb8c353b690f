import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ConflictError } from '@app/shared';
import { ConfigBookkeeping } from '../../../common/config-bookkeeping.repository';
import { editedOnCreate, refuseInvalidEntries } from '../../../common/entry-request';
import {
  checkProgramInput,
  namesTaken,
  repeats,
  toStoredFilter,
  toStoredProgramFields,
} from '../../mapping/program-input';
import {
  FILTER_KIND,
  PROGRAM_KIND,
  programRevisionKey,
  type StoredProgram,
} from '../../domain/program.schema';
import type { ProgramListDto } from '../../dto/program.dto';
import { toProgramDto } from '../../mapping/program.mapper';
import { ProgramRepository } from '../../repositories/program.repository';
import { RequiredConsents } from '../../services/required-consents.service';
import { CreateProgramsCommand } from './create-programs.command';

@CommandHandler(CreateProgramsCommand)
export class CreateProgramsHandler implements ICommandHandler<CreateProgramsCommand> {
  constructor(
    private readonly programs: ProgramRepository,
    private readonly bookkeeping: ConfigBookkeeping,
    private readonly requiredConsents: RequiredConsents,
  ) {}

  async execute({ clientId, userId, programs }: CreateProgramsCommand): Promise<ProgramListDto> {
    // 1. Everything the body alone decides.
    refuseInvalidEntries('Programs', programs, checkProgramInput);
    const conflicts = [
      ...repeats(programs, 'Programs', 'Name', (program) => program.Name),
      ...programs.flatMap((program, index) =>
        repeats(program.Filters, `Programs[${index}].Filters`, 'Name', (filter) => filter.Name),
      ),
    ];
    if (conflicts.length) throw new ConflictError(conflicts.join('; '));

    // 2. Against the stored configuration: consent types, names taken.
    const lists = programs.flatMap((program, p) =>
      (program.Filters ?? []).map((filter, f) => ({
        path: `Programs[${p}].Filters[${f}].RequiredPreferenceConsents`,
        consents: filter.RequiredPreferenceConsents,
      })),
    );
    const resolved = await this.requiredConsents.resolve(clientId, lists);
    const taken = namesTaken(
      programs,
      'Programs',
      await this.programs.listAll(clientId),
      (program) => `(program ${program.programId})`,
    );
    if (taken.length) throw new ConflictError(taken.join('; '));

    // 3. Ids and name claims; a claim lost to a concurrent create undoes this one's claims.
    const names = programs.map((program) => program.Name);
    const ids = await this.bookkeeping.claimNewEntries(
      clientId,
      PROGRAM_KIND,
      names,
      (index) => `Programs[${index}].Name "${names[index]}" already exists`,
      (id) => this.programs.nameHeldBy(clientId, id),
    );

    const edited = editedOnCreate(userId, new Date());
    const stored: StoredProgram[] = [];
    const filterIds = await this.bookkeeping.nextIds(
      clientId,
      FILTER_KIND,
      programs.reduce((sum, program) => sum + (program.Filters?.length ?? 0), 0),
    );
    let list = 0;
    for (const [index, program] of programs.entries()) {
      const filters = [];
      for (const filter of program.Filters ?? []) {
        filters.push(toStoredFilter(filter, filterIds[list], resolved[list]));
        list++;
      }
      stored.push({
        _id: programRevisionKey(clientId, ids[index], 0),
        clientId,
        programId: ids[index],
        revision: 0,
        current: true,
        ...toStoredProgramFields(program),
        Filters: filters,
        Edited: edited,
        filterIds: [],
        requiredConsentTypes: [],
      });
    }
    try {
      await this.programs.insertAll(stored);
    } catch (error) {
      // Not answered: undo what is stored of it, so the names and nothing else remain.
      await this.programs.removeUnanswered(clientId, ids);
      await this.bookkeeping.releaseNames(clientId, PROGRAM_KIND, names, ids);
      throw error;
    }
    await this.bookkeeping.touch(clientId);
    await this.requiredConsents.recheck(
      clientId,
      stored.flatMap((program) => RequiredConsents.added(null, program)),
    );
    return { Programs: stored.map((program) => toProgramDto(program)) };
  }
}
