import type { Provider } from '@nestjs/common';
import { EnvReader } from './env-reader';
import { Settings } from './settings';

/**
 * A lib's settings class as a provider: built once from the environment the process
 * settings were read from (a test's, or process.env), so a bad value stops the start.
 */
export function settingsProvider<T>(type: new (env: EnvReader) => T): Provider {
  return {
    provide: type,
    useFactory: (settings: Settings) => new type(new EnvReader(settings.env)),
    inject: [Settings],
  };
}
