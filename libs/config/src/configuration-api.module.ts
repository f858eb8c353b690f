import { Module } from '@nestjs/common';
import { ConsentStatusController } from './consent-status/consent-status.controller';

/** The Configuration (Experience) API of a client account. */
@Module({ controllers: [ConsentStatusController] })
export class ConfigurationApiModule {}
