import { Global, Module } from '@nestjs/common';
import { Settings } from './settings';

@Global()
@Module({
  providers: [{ provide: Settings, useFactory: () => new Settings() }],
  exports: [Settings],
})
export class SettingsModule {}
