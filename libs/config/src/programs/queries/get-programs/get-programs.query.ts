import { Query } from '@nestjs/cqrs';
import type { ProgramListDto } from '../../dto/program.dto';

export interface GetProgramsOptions {
  /** 0 or absent: all programs. */
  id?: number;
  /** Limits text tags (Locales, FrequencyLocales) to this locale; `parameter` names it. */
  locale?: { value: string; parameter: string };
  /** Raw program type from the path (aliases accepted). */
  programType?: string;
}

export class GetProgramsQuery extends Query<ProgramListDto> {
  constructor(
    readonly clientId: string,
    readonly options: GetProgramsOptions,
  ) {
    super();
  }
}
