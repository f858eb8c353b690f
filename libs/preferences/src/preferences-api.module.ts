import { Module } from '@nestjs/common';
import { ProfilePortsModule } from '@app/profiles';
import { ArchivePreferencesHandler } from './commands/archive-preferences/archive-preferences.handler';
import { PreferenceArchiveController } from './http/preference-archive.controller';
import { PreferenceSearchController } from './http/preference-search.controller';
import { PreferenceHistoryController } from './http/preference-history.controller';

/**
 * The preference routes of the Data API: archival (a queued write Preferences owns) and
 * the profile search by preference attributes (a query Profiles runs with its rule).
 */
@Module({
  imports: [ProfilePortsModule],
  controllers: [
    PreferenceHistoryController,
    PreferenceArchiveController,
    PreferenceSearchController,
  ],
  providers: [ArchivePreferencesHandler],
})
export class PreferencesApiModule {}
