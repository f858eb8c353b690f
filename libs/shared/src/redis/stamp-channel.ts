import { Logger } from '@nestjs/common';
import type { RedisClient, RedisConnectionOptions } from './redis-connection';

/**
 * A Redis pub/sub channel on which every change of a stamp (a random token that changes with
 * the data it guards: a tenant's auth data, its configuration, its do-not-contact lists) is
 * announced, and one process's subscription to it: while the subscription stands, a process may use
 * the stamps it read before without reading them again (`generation` tells a reply that
 * raced an announcement). Messages are lost only with the connection, so every loss of
 * it (close, reconnect) drops what the process knew and moves the generation on.
 */
export class StampChannel {
  private readonly logger = new Logger('StampChannel');
  private subscriber: RedisClient | null = null;
  private subscribed = false;
  private closed = false;
  /** Moves on with every announcement received and every change of the subscription. */
  generation = 0;

  constructor(
    /** Opens a connection of its own to the service's Redis (RedisService.connect). */
    private readonly connect: (options: RedisConnectionOptions) => RedisClient,
    readonly name: string,
    /** Called with the stamp name announced, or null when everything must be forgotten. */
    private readonly onChange: (stampName: string | null) => void,
  ) {}

  /** Whether announcements are being received (the subscription is confirmed and up). */
  get healthy(): boolean {
    return this.subscribed;
  }

  /** Subscribes on a connection of its own (a subscribed connection runs no commands). */
  start(): void {
    if (this.subscriber || this.closed) return;
    // Resubscribed by hand on 'ready', so the moment it is confirmed again is known.
    // Named after the channel, so an operator (or a test) can tell it in CLIENT LIST.
    const subscriber = this.connect({
      autoResubscribe: false,
      lazyConnect: false,
      // A subscriber sends nothing to pipeline.
      enableAutoPipelining: false,
      connectionName: this.name,
    });
    this.subscriber = subscriber;
    subscriber.on('error', () => undefined);
    subscriber.on('message', (channel: string, message: string) => {
      if (channel !== this.name) return;
      this.generation++;
      this.onChange(message);
    });
    const lost = () => {
      if (!this.subscribed) return;
      this.subscribed = false;
      this.forget();
    };
    subscriber.on('close', lost);
    subscriber.on('end', lost);
    subscriber.on('reconnecting', lost);
    subscriber.on('ready', () => {
      subscriber.subscribe(this.name).then(
        () => {
          // Anything may have changed while no announcement could arrive.
          this.forget();
          this.subscribed = subscriber.status === 'ready';
        },
        (error: unknown) =>
          this.logger.warn(`stamp announcements of ${this.name} not received: ${String(error)}`),
      );
    });
  }

  stop(): void {
    this.closed = true;
    this.subscribed = false;
    this.subscriber?.disconnect();
    this.subscriber = null;
  }

  private forget(): void {
    this.generation++;
    this.onChange(null);
  }
}
