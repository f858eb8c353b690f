import { Injectable } from '@nestjs/common';
import { TenantScopedModel, InjectTenantScoped } from '@app/shared';
import { confirmationSettingsKey } from '../../keys';
import { StoredConfirmationSettings } from '../domain/confirmation-settings.schema';

/** The `config_confirmation_settings` collection, by `_id` only. */
@Injectable()
export class ConfirmationSettingsRepository {
  constructor(
    @InjectTenantScoped(StoredConfirmationSettings)
    private readonly settings: TenantScopedModel<StoredConfirmationSettings>,
  ) {}

  find(clientId: string): Promise<StoredConfirmationSettings | null> {
    return this.settings
      .findById(confirmationSettingsKey(clientId))
      .lean<StoredConfirmationSettings>()
      .exec();
  }

  async replace(settings: StoredConfirmationSettings): Promise<void> {
    await this.settings.replaceOne({ _id: settings._id }, settings, { upsert: true }).exec();
  }
}
