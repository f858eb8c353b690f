import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { ConfirmationSettingsViewDto } from '../../dto/confirmation-settings.dto';
import { toConfirmationSettingsDto } from '../../mapping/confirmation-settings.mapper';
import { ConfirmationSettingsRepository } from '../../repositories/confirmation-settings.repository';
import { GetConfirmationSettingsQuery } from './get-confirmation-settings.query';

@QueryHandler(GetConfirmationSettingsQuery)
export class GetConfirmationSettingsHandler implements IQueryHandler<GetConfirmationSettingsQuery> {
  constructor(private readonly settings: ConfirmationSettingsRepository) {}

  async execute({ clientId }: GetConfirmationSettingsQuery): Promise<ConfirmationSettingsViewDto> {
    return toConfirmationSettingsDto(await this.settings.find(clientId));
  }
}
