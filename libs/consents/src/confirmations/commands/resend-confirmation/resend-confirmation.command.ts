import { Command } from '@nestjs/cqrs';
import type { Caller } from '@app/auth';
import type { ConfirmationDto } from '../../dto/confirmation.dto';

/** POST /{clientId}/Profile/{profileId}/Confirmations/{confirmationId}/Resend. */
export class ResendConfirmationCommand extends Command<ConfirmationDto> {
  constructor(
    readonly caller: Caller,
    readonly profileId: number,
    readonly confirmationId: string,
  ) {
    super();
  }
}
