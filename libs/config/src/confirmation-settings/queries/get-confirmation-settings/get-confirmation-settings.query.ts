import { Query } from '@nestjs/cqrs';
import type { ConfirmationSettingsViewDto } from '../../dto/confirmation-settings.dto';

/** GET /{clientId}/ConfirmationSettings. */
export class GetConfirmationSettingsQuery extends Query<ConfirmationSettingsViewDto> {
  constructor(readonly clientId: string) {
    super();
  }
}
