import { Command } from '@nestjs/cqrs';
import type { FilterDto, ProgramDto } from '../../dto/program.dto';
import type { ProgramGroupDto } from '../../dto/program-group.dto';

export const CUSTOM_PROPERTY_ENTITIES = ['Program', 'Filter', 'ProgramGroup'] as const;
export type CustomPropertyEntity = (typeof CUSTOM_PROPERTY_ENTITIES)[number];

export type CustomPropertiesResult =
  { Programs: ProgramDto[] } | { Filters: FilterDto[] } | { ProgramGroups: ProgramGroupDto[] };

/** Sets custom properties on programs, filters or program groups by id. */
export class SetCustomPropertiesCommand extends Command<CustomPropertiesResult> {
  constructor(
    readonly clientId: string,
    readonly userId: string,
    readonly entity: string,
    readonly body: unknown,
  ) {
    super();
  }
}
