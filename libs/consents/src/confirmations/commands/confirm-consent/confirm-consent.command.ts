import { Command } from '@nestjs/cqrs';
import type { RequestWindow } from '@app/shared';
import type { ConfirmationPage } from '../../views/confirmation-page.view';

/** POST /Confirm/{token}: the person confirms; the grant is queued as an ordinary write. */
export class ConfirmConsentCommand extends Command<ConfirmationPage> {
  constructor(
    readonly token: string,
    readonly request: { ipAddress: string; userAgent?: string },
    readonly window: RequestWindow | null,
  ) {
    super();
  }
}
