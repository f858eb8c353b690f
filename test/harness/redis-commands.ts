import { randomUUID } from 'node:crypto';
import { connect, type Socket } from 'node:net';

/**
 * Every Redis command (its arguments) sent by any connection while `run` runs, seen through
 * MONITOR. The end is marked by an ECHO of a random word, so no command of `run` is missed.
 *
 * MONITOR is read from a plain socket, not ioredis's `monitor()`: ioredis enters its
 * monitoring state only after it handled MONITOR's `+OK`, so monitor lines that arrive in the
 * same chunk as that `OK` (a busy Redis) reach its command queue and fail with "Command queue
 * state error" (seen in auth-cache under load).
 */
export async function recordRedisCommands(
  redisUrl: string,
  run: () => Promise<void>,
): Promise<string[][]> {
  const commands: string[][] = [];
  const marker = `end-of-recording-${randomUUID()}`;
  const monitor = await openMonitor(redisUrl);
  const ended = new Promise<void>((resolve, reject) => {
    monitor.onLine = (args) => {
      if (args[0]?.toLowerCase() === 'echo' && args[1] === marker) resolve();
      else commands.push(args);
    };
    monitor.socket.once('error', reject);
    monitor.socket.once('close', () => reject(new Error('MONITOR connection closed')));
  });
  ended.catch(() => undefined);
  try {
    await run();
    await sendOnce(redisUrl, ['ECHO', marker]);
    await ended;
    return commands;
  } finally {
    monitor.socket.destroy();
  }
}

interface MonitorConnection {
  socket: Socket;
  onLine: (args: string[]) => void;
}

/** A socket in MONITOR mode, resolved once Redis answered `+OK`. */
function openMonitor(redisUrl: string): Promise<MonitorConnection> {
  const url = new URL(redisUrl);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: url.hostname, port: Number(url.port || 6379) });
    const connection: MonitorConnection = { socket, onLine: () => undefined };
    let pending = '';
    // AUTH (when the URL has a password) and MONITOR each answer `+OK`; the last starts the stream.
    const auth = url.password
      ? [
          'AUTH',
          ...(url.username ? [decodeURIComponent(url.username)] : []),
          decodeURIComponent(url.password),
        ]
      : [];
    let okAwaited = auth.length > 0 ? 2 : 1;
    socket.once('error', reject);
    socket.on('connect', () => socket.write(encode(auth) + encode(['MONITOR'])));
    socket.on('data', (chunk: Buffer) => {
      pending += chunk.toString('latin1');
      let end: number;
      while ((end = pending.indexOf('\r\n')) >= 0) {
        const line = pending.slice(0, end);
        pending = pending.slice(end + 2);
        if (line.startsWith('-')) {
          reject(new Error(`MONITOR refused: ${line.slice(1)}`));
          socket.destroy();
          return;
        }
        if (okAwaited > 0) {
          if (line === '+OK' && --okAwaited === 0) resolve(connection);
          continue;
        }
        connection.onLine(monitorArguments(line));
      }
    });
  });
}

/** One command on a connection of its own; resolves with its first reply line. */
function sendOnce(redisUrl: string, args: string[]): Promise<string> {
  const url = new URL(redisUrl);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: url.hostname, port: Number(url.port || 6379) });
    let pending = '';
    socket.once('error', reject);
    socket.on('connect', () => socket.write(encode(args)));
    socket.on('data', (chunk: Buffer) => {
      pending += chunk.toString('latin1');
      const end = pending.indexOf('\r\n');
      if (end < 0) return;
      socket.destroy();
      resolve(pending.slice(0, end));
    });
  });
}

function encode(args: string[]): string {
  if (args.length === 0) return '';
  return `*${args.length}\r\n${args.map((arg) => `$${Buffer.byteLength(arg)}\r\n${arg}\r\n`).join('')}`;
}

const ESCAPES: Record<string, string> = { n: '\n', r: '\r', t: '\t', a: '\x07', b: '\b' };

/**
 * The arguments of one MONITOR line: `+<time> [<db> <source>] "arg" "arg" ...`, each argument
 * quoted as Redis's `sdscatrepr` writes it (backslash escapes, `\xHH` for other bytes).
 */
export function monitorArguments(line: string): string[] {
  const args: string[] = [];
  let at = line.indexOf('"');
  while (at >= 0 && at < line.length) {
    let value = '';
    at += 1;
    while (at < line.length && line[at] !== '"') {
      if (line[at] === '\\') {
        const next = line[at + 1];
        if (next === 'x') {
          value += String.fromCharCode(parseInt(line.slice(at + 2, at + 4), 16));
          at += 4;
        } else {
          value += ESCAPES[next] ?? next;
          at += 2;
        }
      } else {
        value += line[at];
        at += 1;
      }
    }
    args.push(value);
    at = line.indexOf('"', at + 1);
  }
  return args;
}
