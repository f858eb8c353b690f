import { isDuplicateKeyError } from './duplicate-key';

/**
 * Inserts the document `build` makes for the first free number from `from` up to `max`: the
 * insert of its unique `_id` claims the number, and a duplicate key (taken) moves on to the
 * next one. Undefined when every number up to `max` is taken.
 */
export async function insertAtNextFreeNumber<T>(
  from: number,
  build: (n: number) => T,
  insert: (doc: T) => Promise<unknown>,
  max = Number.MAX_SAFE_INTEGER,
): Promise<T | undefined> {
  for (let n = from; n <= max; n++) {
    const doc = build(n);
    try {
      await insert(doc);
      return doc;
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
    }
  }
  return undefined;
}
