import { Injectable } from '@nestjs/common';
import { InjectConnection } from '@nestjs/mongoose';
import type { Connection } from 'mongoose';

/**
 * The engine's answer to `ping` through the process's mongoose connection (readiness). Not
 * the connection's state alone: a stalled engine keeps its connections open.
 */
@Injectable()
export class EnginePing {
  constructor(@InjectConnection() private readonly connection: Connection) {}

  /** Resolves when the engine answered `ping`; rejects when it failed or took `timeoutMs`. */
  async ping(timeoutMs: number): Promise<void> {
    const db = this.connection.db;
    if (!db || this.connection.readyState !== 1) throw new Error('not connected');
    await withTimeout(db.command({ ping: 1 }), timeoutMs);
  }
}

/** `promise`, or a rejection naming the timeout once `ms` passed first. */
export async function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
