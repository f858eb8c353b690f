import type { Model } from 'mongoose';
import { isDuplicateKeyError } from './duplicate-key';

/**
 * Inserts `value` unless another process inserted one first, and returns the one that is
 * stored: of two processes generating at once, both end up with the first insert's value.
 * `insert` writes it under its fixed `_id`; `stored` reads that `_id` back.
 */
export async function insertFirstWins(
  value: string,
  insert: () => Promise<unknown>,
  stored: () => Promise<string | null>,
  what: string,
): Promise<string> {
  try {
    await insert();
    return value;
  } catch (error) {
    if (!isDuplicateKeyError(error)) throw error;
  }
  const winner = await stored();
  if (!winner) throw new Error(`${what} vanished after a duplicate insert`);
  return winner;
}

/** A document holding a key the deployment generated, in its field `F`. */
export type GeneratedKeyDoc<F extends string> = GeneratedKeyFields & Record<F, string>;

interface GeneratedKeyFields {
  _id: string;
  createdAt: Date;
}

/**
 * A global collection (the deployment's key, no tenant's) holding the one key the
 * deployment generated for itself while none is configured: one document under a fixed
 * `_id`, read and inserted by `_id` only. A repository of such a key extends it.
 */
export class GeneratedKeyStore<F extends string> {
  constructor(
    private readonly keys: Model<GeneratedKeyDoc<F>>,
    private readonly id: string,
    private readonly field: F,
    /** What the key is, in the error of a key gone after a duplicate insert. */
    private readonly what: string,
  ) {}

  /** The generated key, if one was stored. */
  async findGenerated(): Promise<string | null> {
    const doc = await this.keys.findById(this.id).lean<GeneratedKeyDoc<F>>().exec();
    return doc?.[this.field] ?? null;
  }

  /** Stores `key` as the generated key unless one is there, and returns the one that is. */
  insertGeneratedIfAbsent(key: string, at: Date): Promise<string> {
    return insertFirstWins(
      key,
      () =>
        this.keys.collection.insertOne({ _id: this.id, [this.field]: key, createdAt: at } as never),
      () => this.findGenerated(),
      this.what,
    );
  }
}
