import { DynamicModule, Global, Module } from '@nestjs/common';
import { Settings } from './settings';

@Global()
@Module({})
export class SettingsModule {
  /** Makes one Settings instance (from the environment, or a test's) injectable everywhere. */
  static forRoot(settings: Settings): DynamicModule {
    return {
      module: SettingsModule,
      providers: [{ provide: Settings, useValue: settings }],
      exports: [Settings],
    };
  }
}
