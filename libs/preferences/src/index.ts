// Public surface of @app/preferences: other libs import nothing deeper.
export { PreferencesApiModule } from './preferences-api.module';
export { ArchivePreferencesCommand } from './commands/archive-preferences/archive-preferences.command';
export { PREFERENCE_PROFILE_RULES } from './profile-rules/preference-profile-rules';
export type { PreferenceAttributeSearch } from './search/preference-attribute-search';
export {
  GPC_ATTRIBUTE,
  GPC_SOURCE,
  GPC_VALUES,
  type GpcValue,
  gpcValueOf,
} from './domain/global-privacy-control';
