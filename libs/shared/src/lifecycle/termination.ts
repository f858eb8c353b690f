import { Logger } from '@nestjs/common';

const SIGNALS = ['SIGTERM', 'SIGINT'] as const;

/**
 * Runs `stop` once on the first SIGTERM or SIGINT, then exits 0 (1 if `stop` failed); a
 * second signal exits at once with 1. `signals` and `exit` are the process's unless a
 * test passes its own.
 */
export function onTermination(
  name: string,
  stop: () => Promise<void>,
  options: {
    signals?: Pick<NodeJS.EventEmitter, 'on'>;
    exit?: (code: number) => void;
  } = {},
): void {
  const signals = options.signals ?? process;
  const exit = options.exit ?? ((code: number) => process.exit(code));
  const logger = new Logger(name);
  let stopping = false;
  const onSignal = (signal: string) => {
    if (stopping) {
      logger.warn(`${signal} again: exiting without waiting`);
      exit(1);
      return;
    }
    stopping = true;
    logger.log(`${signal}: finishing the work in progress, then exiting`);
    stop().then(
      () => exit(0),
      (error: unknown) => {
        logger.error(`stopping failed: ${String(error)}`);
        exit(1);
      },
    );
  };
  for (const signal of SIGNALS) signals.on(signal, () => onSignal(signal));
}
