'use strict';
// A TCP relay between one process and the engine that counts the MongoDB wire commands it
// passes, by command and collection (the first element of each OP_MSG body: `{insert:
// "profiles", ...}`), and the time from each request to its answer. A bench that wants to
// know what a step costs in engine round trips puts it in front of the worker
// (BENCH_ENGINE_COMMANDS=1, scripts/lib/service-stack.js) and prints `report()`.
const net = require('node:net');

const OP_MSG = 2013;

/** The command name and its collection of an OP_MSG's body section (kind 0), or null. */
function commandOf(message) {
  if (message.readInt32LE(12) !== OP_MSG) return null;
  let at = 20; // header (16) + flagBits (4)
  while (at < message.length) {
    const kind = message[at];
    if (kind === 0) {
      const doc = at + 1;
      const type = message[doc + 4];
      const nameEnd = message.indexOf(0, doc + 5);
      const name = message.toString('utf8', doc + 5, nameEnd);
      const collection =
        type === 0x02
          ? message.toString('utf8', nameEnd + 5, nameEnd + 4 + message.readInt32LE(nameEnd + 1))
          : '';
      return { name, collection };
    }
    at += 1 + message.readInt32LE(at + 1); // a kind 1 section: its size follows the kind
  }
  return null;
}

/** Splits a stream of wire messages (each prefixed by its int32 length) into messages. */
function messageSplitter(onMessage) {
  let pending = Buffer.alloc(0);
  return (chunk) => {
    pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
    while (pending.length >= 4 && pending.length >= pending.readInt32LE(0)) {
      const size = pending.readInt32LE(0);
      onMessage(pending.subarray(0, size));
      pending = pending.subarray(size);
    }
  };
}

const IGNORED = new Set([
  'hello',
  'isMaster',
  'ismaster',
  'ping',
  'endSessions',
  'saslStart',
  'saslContinue',
]);

/** Starts the relay to `target` (host:port); resolves { port, report(), reset(), close() }. */
async function startEngineCommandCounter(targetHost, targetPort) {
  const counts = new Map();
  const track = (command, ms) => {
    const key = `${command.name} ${command.collection}`;
    const entry = counts.get(key) ?? { count: 0, ms: 0 };
    entry.count += 1;
    entry.ms += ms;
    counts.set(key, entry);
  };
  const server = net.createServer((client) => {
    const engine = net.connect(targetPort, targetHost);
    const waiting = new Map(); // requestID -> { command, at }
    client.on(
      'data',
      messageSplitter((message) => {
        const command = commandOf(message);
        if (command && !IGNORED.has(command.name)) {
          waiting.set(message.readInt32LE(4), { command, at: process.hrtime.bigint() });
        }
        engine.write(message);
      }),
    );
    engine.on(
      'data',
      messageSplitter((message) => {
        const started = waiting.get(message.readInt32LE(8)); // responseTo
        if (started) {
          waiting.delete(message.readInt32LE(8));
          track(started.command, Number(process.hrtime.bigint() - started.at) / 1e6);
        }
        client.write(message);
      }),
    );
    const end = () => {
      client.destroy();
      engine.destroy();
    };
    client.on('error', end).on('close', end);
    engine.on('error', end).on('close', end);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: server.address().port,
    reset: () => counts.clear(),
    /** Lines `count  total ms  mean ms  command collection`, most time first. */
    report: (per = 1) =>
      [...counts.entries()]
        .sort((a, b) => b[1].ms - a[1].ms)
        .map(
          ([key, { count, ms }]) =>
            `${(count / per).toFixed(2).padStart(9)} ${(ms / per).toFixed(2).padStart(9)} ms ` +
            `${(ms / count).toFixed(2).padStart(7)} ms/each  ${key}`,
        ),
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

module.exports = { startEngineCommandCounter };
