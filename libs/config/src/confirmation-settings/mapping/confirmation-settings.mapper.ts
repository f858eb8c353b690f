import { toEditedDto } from '../../common/entry-request';
import type { StoredConfirmationSettings } from '../domain/confirmation-settings.schema';
import {
  type ConfirmationSettings,
  DEFAULT_CONFIRMATION_SETTINGS,
  DEFAULT_CONFIRMATION_TEMPLATE,
} from '../domain/confirmation-template';
import type { ConfirmationSettingsViewDto } from '../dto/confirmation-settings.dto';

/** Stored settings (or none) → what the double opt-in uses. */
export function toConfirmationSettings(
  stored: StoredConfirmationSettings | null,
): ConfirmationSettings {
  if (!stored) return DEFAULT_CONFIRMATION_SETTINGS;
  return {
    TimeToLiveHours: stored.TimeToLiveHours,
    From: stored.From ?? null,
    Templates: stored.Templates.map(({ Locale, Subject, Text, Html }) => ({
      Locale,
      Subject,
      Text,
      Html,
    })),
  };
}

/** Stored settings (or none: the defaults) → wire. */
export function toConfirmationSettingsDto(
  stored: StoredConfirmationSettings | null,
): ConfirmationSettingsViewDto {
  const settings = toConfirmationSettings(stored);
  return {
    TimeToLiveHours: settings.TimeToLiveHours,
    From: settings.From,
    Templates: settings.Templates,
    Edited: toEditedDto(stored?.Edited),
    DefaultTemplate: { ...DEFAULT_CONFIRMATION_TEMPLATE },
  };
}
