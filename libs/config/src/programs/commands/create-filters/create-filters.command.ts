import { Command } from '@nestjs/cqrs';
import type { FilterDto, FilterListDto } from '../../dto/program.dto';

/** Adds filters to a program, all or nothing. */
export class CreateFiltersCommand extends Command<FilterListDto> {
  constructor(
    readonly clientId: string,
    readonly userId: string,
    readonly programId: number,
    readonly filters: FilterDto[],
  ) {
    super();
  }
}
