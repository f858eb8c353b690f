import { Command } from '@nestjs/cqrs';
import type {
  ConfirmationSettingsDto,
  ConfirmationSettingsViewDto,
} from '../../dto/confirmation-settings.dto';

/** PUT /{clientId}/ConfirmationSettings: the client's double opt-in settings, replaced whole. */
export class ReplaceConfirmationSettingsCommand extends Command<ConfirmationSettingsViewDto> {
  constructor(
    readonly clientId: string,
    readonly userId: string,
    readonly body: ConfirmationSettingsDto,
  ) {
    super();
  }
}
