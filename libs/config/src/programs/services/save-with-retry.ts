import { ApiError } from '@app/shared';
import { nameKey } from '../domain/program-input';

export interface RevisionedEntry {
  revision: number;
  Name: string;
}

export interface NameClaims {
  /** False when another entry holds the name. */
  claim(name: string): Promise<boolean>;
  release(name: string): Promise<void>;
  /** The 409 message when `name` is taken. */
  conflict(name: string): string;
}

const ATTEMPTS = 10;

/** A short random pause before a retry, longer after each lost race, so racers spread out. */
function backoff(attempt: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * attempt));
}

/**
 * Load, change in code, save the whole document only while its revision is the one read;
 * on a lost race, start again from a fresh read (the change is recomputed, so it always
 * applies to the latest state). A rename claims the new name before the save and releases
 * the old one after it; claims a failed attempt took are released.
 */
export async function saveWithRetry<T extends RevisionedEntry>(options: {
  load: () => Promise<T | null>;
  notFound: string;
  change: (current: T) => Promise<T>;
  save: (next: T, expectedRevision: number) => Promise<boolean>;
  names?: NameClaims;
  what: string;
}): Promise<{ before: T; after: T }> {
  const claimed = new Map<string, string>();
  let storedName: string | undefined;
  try {
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      if (attempt > 0) await backoff(attempt);
      const current = await options.load();
      if (!current) throw ApiError.notFound(options.notFound);
      storedName = current.Name;
      const next = await options.change(current);
      const renamed = nameKey(next.Name) !== nameKey(current.Name);
      if (renamed && options.names && !claimed.has(nameKey(next.Name))) {
        if (!(await options.names.claim(next.Name))) {
          throw ApiError.conflict(options.names.conflict(next.Name));
        }
        claimed.set(nameKey(next.Name), next.Name);
      }
      if (await options.save(next, current.revision)) {
        storedName = next.Name;
        if (renamed && options.names) await options.names.release(current.Name);
        return { before: current, after: next };
      }
    }
    throw ApiError.conflict(
      `${options.what} was changed by other requests at the same time; retry the request`,
    );
  } finally {
    if (options.names) {
      for (const [key, name] of claimed) {
        if (storedName === undefined || key !== nameKey(storedName)) {
          await options.names.release(name);
        }
      }
    }
  }
}
