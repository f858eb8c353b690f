import { Logger } from '@nestjs/common';
import {
  loadSettings,
  onTermination,
  type Settings,
  type SettingsDeclaration,
  SettingsError,
} from '@app/shared';

/** How a process of the service starts and stops (api, worker, the lifted apps). */
export interface ProcessLifecycle<App> {
  /** Its name in the log and on termination. */
  name: string;
  /** Every variable it reads, checked before anything reads a setting. */
  declarations: readonly SettingsDeclaration[];
  create(settings: Settings): Promise<App>;
  close(app: App, settings: Settings): Promise<void>;
  /** What follows create before the process counts as started (an HTTP app listens). */
  serve?(app: App, settings: Settings): Promise<unknown>;
  /** The line it logs once started. */
  started(settings: Settings): string;
}

/**
 * Starts a process: the whole environment checked against every variable it declares (a bad
 * value stops it here, one line per bad variable), its app made and served, its close run on
 * SIGTERM or SIGINT. A failure to start exits 1.
 */
export function runProcess<App>(lifecycle: ProcessLifecycle<App>): void {
  const start = async (): Promise<void> => {
    const settings = loadSettings(lifecycle.declarations);
    const app = await lifecycle.create(settings);
    await lifecycle.serve?.(app, settings);
    onTermination(lifecycle.name, () => lifecycle.close(app, settings));
    Logger.log(lifecycle.started(settings), lifecycle.name);
  };
  void start().catch((error: unknown) => {
    // Bad settings: their message alone (each bad variable and its value), no stack trace.
    console.error(error instanceof SettingsError ? error.message : error);
    process.exit(1);
  });
}

/** The origin an HTTP process listens on, for its start line. */
export function listeningOrigin(settings: Settings): string {
  return `${settings.tlsCertFile ? 'https' : 'http'}://${settings.host}:${settings.port}`;
}
