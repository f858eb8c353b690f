import type { DynamicModule, ModuleMetadata, Type } from '@nestjs/common';
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

/**
 * The root module of a process: the foundation for its `declarations`, then what the
 * process runs (`imports`).
 */
export function processModule(
  module: Type<unknown>,
  declarations: readonly SettingsDeclaration[],
  settings: Settings,
  imports: NonNullable<ModuleMetadata['imports']>,
): DynamicModule {
  return { module, imports: [...processFoundation(declarations, settings), ...imports] };
}
