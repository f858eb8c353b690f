import { Module } from '@nestjs/common';
import { ConfigurationCoreModule } from '../configuration-core.module';

/** Picklists: controllers, use cases and repositories of this configuration area. */
@Module({
  imports: [ConfigurationCoreModule],
})
export class PicklistsModule {}
