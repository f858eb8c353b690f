import { Module } from '@nestjs/common';
import { ConfigurationCoreModule } from '../configuration-core.module';

/** Programs: controllers, use cases and repositories of this configuration area. */
@Module({
  imports: [ConfigurationCoreModule],
})
export class ProgramsModule {}
