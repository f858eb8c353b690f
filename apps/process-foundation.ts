import type { ModuleMetadata } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import {
  DatabaseModule,
  RedisModule,
  Settings,
  type SettingsDeclaration,
  settingsConfigModule,
  SettingsModule,
} from '@app/shared';

/**
 * What every process of the service stands on (api, worker, the lifted decisions app): its
 * environment checked by @nestjs/config against every variable it declares (one error names
 * every bad one and its value), the settings, the engine, Redis and the CQRS buses.
 */
export function processFoundation(
  declarations: readonly SettingsDeclaration[],
  settings: Settings,
): NonNullable<ModuleMetadata['imports']> {
  return [
    settingsConfigModule(declarations, settings),
    SettingsModule.forRoot(settings),
    DatabaseModule,
    RedisModule,
    CqrsModule.forRoot(),
  ];
}
