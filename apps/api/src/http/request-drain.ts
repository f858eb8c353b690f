import type { FastifyInstance } from 'fastify';

/** What a request that arrives while the api shuts down is answered (503). */
export const SHUTTING_DOWN = {
  Message: 'The service is shutting down: retry the request (another instance will answer it)',
};

/**
 * Counts the requests in flight and, once draining, answers every new one 503 with
 * `Connection: close` (so kept-alive clients reconnect elsewhere) in the service's error
 * shape. Installed first, so no other hook runs for a refused request.
 */
export class RequestDrain {
  private inFlight = 0;
  private draining = false;
  private idle: (() => void)[] = [];

  install(fastify: FastifyInstance): void {
    fastify.addHook('onRequest', (_request, reply, done) => {
      if (this.draining) {
        void reply
          .status(503)
          .header('Connection', 'close')
          .header('Retry-After', '1')
          .send(SHUTTING_DOWN);
        return;
      }
      this.inFlight++;
      // 'close' fires once whether the answer was sent or the client went away.
      reply.raw.once('close', () => this.finished());
      done();
    });
  }

  get isDraining(): boolean {
    return this.draining;
  }

  /**
   * Refuses new requests from now on and resolves when those in flight have finished, or
   * after `graceMs` (whichever comes first); true when none was left running.
   */
  async drain(graceMs: number): Promise<boolean> {
    this.draining = true;
    if (this.inFlight === 0) return true;
    let timer: NodeJS.Timeout | undefined;
    const done = await Promise.race([
      new Promise<boolean>((resolve) => this.idle.push(() => resolve(true))),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), graceMs);
      }),
    ]);
    clearTimeout(timer);
    return done;
  }

  private finished(): void {
    this.inFlight--;
    if (this.inFlight > 0) return;
    for (const resolve of this.idle.splice(0)) resolve();
  }
}
