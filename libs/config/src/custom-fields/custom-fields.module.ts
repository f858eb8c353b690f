import { Module } from '@nestjs/common';
import { ConfigurationCoreModule } from '../configuration-core.module';

/** CustomFields: controllers, use cases and repositories of this configuration area. */
@Module({
  imports: [ConfigurationCoreModule],
})
export class CustomFieldsModule {}
