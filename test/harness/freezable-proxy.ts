import net from 'node:net';

/**
 * A TCP proxy in front of a server (the engine) that a test can freeze: while frozen, no
 * byte passes in either direction and connections stay open, as with a stalled engine
 * process. Loopback only.
 */
export interface FreezableProxy {
  port: number;
  freeze(): void;
  thaw(): void;
  /** Cuts every open connection, as an engine restart does (new ones pass again). */
  cut(): void;
  close(): Promise<void>;
}

export async function startFreezableProxy(target: {
  host: string;
  port: number;
}): Promise<FreezableProxy> {
  const sockets = new Set<net.Socket>();
  let frozen = false;
  const server = net.createServer((client) => {
    const upstream = net.connect(target.port, target.host);
    client.pipe(upstream);
    upstream.pipe(client);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => undefined);
      // After pipe(), which resumes its source: a connection opened while frozen stays frozen.
      if (frozen) socket.pause();
    }
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    freeze() {
      frozen = true;
      for (const socket of sockets) socket.pause();
    },
    thaw() {
      frozen = false;
      for (const socket of sockets) socket.resume();
    },
    cut() {
      for (const socket of sockets) socket.destroy();
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
