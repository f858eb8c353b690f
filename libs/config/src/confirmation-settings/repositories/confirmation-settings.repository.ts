import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { TenantScopedModel } from '@app/shared';
import type { Model } from 'mongoose';
import { confirmationSettingsKey } from '../../keys';
import { StoredConfirmationSettings } from '../domain/confirmation-settings.schema';

/** The `config_confirmation_settings` collection, by `_id` only. */
@Injectable()
export class ConfirmationSettingsRepository {
  private readonly settings: TenantScopedModel<StoredConfirmationSettings>;

  constructor(
    @InjectModel(StoredConfirmationSettings.name) settings: Model<StoredConfirmationSettings>,
  ) {
    this.settings = new TenantScopedModel(settings);
  }

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
