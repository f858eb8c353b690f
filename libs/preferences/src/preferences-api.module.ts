import { Module } from '@nestjs/common';
import { ProfilePortsModule } from '@app/profiles';
import { ArchivePreferencesHandler } from './commands/archive-preferences/archive-preferences.handler';
import { PreferenceArchiveController } from './http/preference-archive.controller';

/** The preference routes of the Data API: archival (a queued write Preferences owns). */
@Module({
  imports: [ProfilePortsModule],
  controllers: [PreferenceArchiveController],
  providers: [ArchivePreferencesHandler],
})
export class PreferencesApiModule {}
