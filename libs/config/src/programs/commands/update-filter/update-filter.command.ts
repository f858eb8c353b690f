import { Command } from '@nestjs/cqrs';
import type { FilterListDto, RequiredPreferenceConsentDto } from '../../dto/program.dto';

/**
 * Changes one filter: PATCH operations on its wire shape, or (`replaceRequiredConsents`)
 * a new RequiredPreferenceConsents list.
 */
export class UpdateFilterCommand extends Command<FilterListDto> {
  constructor(
    readonly clientId: string,
    readonly userId: string,
    readonly filterId: number,
    readonly change: { operations: unknown } | { requiredConsents: RequiredPreferenceConsentDto[] },
  ) {
    super();
  }
}
