import { DynamicModule, Global, Module } from '@nestjs/common';
import { CrashPoints } from '../crash-points/crash-points';
import { Settings } from './settings';

@Global()
@Module({})
export class SettingsModule {
  /** Makes one Settings instance (from the environment, or a test's) injectable everywhere. */
  static forRoot(settings: Settings): DynamicModule {
    return {
      module: SettingsModule,
      // CrashPoints rides along: every process has one, for tests to arm (crash-points.ts).
      providers: [{ provide: Settings, useValue: settings }, CrashPoints],
      exports: [Settings, CrashPoints],
    };
  }
}
