import Redis from 'ioredis';
import { randomUUID } from 'node:crypto';

/**
 * Every Redis command (its arguments) sent by any connection while `run` runs, seen through
 * MONITOR. The end is marked by an ECHO of a random word, so no command of `run` is missed.
 */
export async function recordRedisCommands(
  redisUrl: string,
  run: () => Promise<void>,
): Promise<string[][]> {
  const source = new Redis(redisUrl);
  const monitor = await source.monitor();
  const commands: string[][] = [];
  const marker = `end-of-recording-${randomUUID()}`;
  let markerSeen: () => void = () => undefined;
  const ended = new Promise<void>((resolve) => (markerSeen = resolve));
  monitor.on('monitor', (_time: string, args: string[]) => {
    if (args[0]?.toLowerCase() === 'echo' && args[1] === marker) markerSeen();
    else commands.push(args);
  });
  try {
    await run();
    await source.echo(marker);
    await ended;
    return commands;
  } finally {
    monitor.disconnect();
    source.disconnect();
  }
}
