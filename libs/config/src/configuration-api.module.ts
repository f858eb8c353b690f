import { Module } from '@nestjs/common';
import { ConsentStatusController } from './consent-status/consent-status.controller';
import { ConfigurationCoreModule } from './configuration-core.module';

/** The Configuration (Experience) API of a client account. */
@Module({
  imports: [ConfigurationCoreModule],
  controllers: [ConsentStatusController],
})
export class ConfigurationApiModule {}
