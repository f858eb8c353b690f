import { ConflictError, NotFoundError, textKey } from '@app/shared';

export interface RevisionedEntry {
  revision: number;
}

export interface NameClaims {
  /** False when another entry holds the name. */
  claim(name: string): Promise<boolean>;
  release(name: string): Promise<void>;
  /** The 409 message when `name` is taken. */
  conflict(name: string): string;
}

/** Where saveWithRetry reads and saves one entry. */
export interface EntryRevisions<T> {
  /** What the 409 of too many lost races calls the entry. */
  what: string;
  notFound: string;
  load: () => Promise<T | null>;
  /** False when another writer stored the revision after `expectedRevision` first. */
  save: (next: T, expectedRevision: number) => Promise<boolean>;
}

/**
 * How often a change starts over when another writer saved the entry meanwhile: every lost
 * attempt means another writer succeeded, so this bounds the concurrent writers served.
 */
const ATTEMPTS = 20;

/** A short random pause before a retry, longer after each lost race, so racers spread out. */
function backoff(attempt: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * attempt));
}

/**
 * Load the latest revision, change it in code, save it as the next revision (RevisionStore:
 * the save fails when another writer stored that revision first); on a lost race, start again
 * from a fresh read, so the change always applies to the latest state. A rename claims the
 * new name before the save; after it, the old name and the names of failed attempts are
 * released unless the entry's latest revision has them (a concurrent writer may have renamed
 * it back while the claim was still held).
 */
export async function saveWithRetry<T extends RevisionedEntry>(
  options: EntryRevisions<T> & {
    change: (current: T) => Promise<T>;
    names?: NameClaims;
    /** The name `names` claims (default: the entry's `Name`). */
    nameOf?: (entry: T) => string;
    /**
     * Every name the entry keeps claimed (default: its current name only): a kind whose former
     * names stay reserved to the entry (consent types) lists them here, so they are not released.
     */
    heldNames?: (entry: T) => string[];
  },
): Promise<{ before: T; after: T }> {
  const { names } = options;
  const nameOf = options.nameOf ?? ((entry: T) => (entry as T & { Name: string }).Name);
  /** Names this call claimed or gave up, by name key: released at the end unless the entry has them. */
  const releasable = new Map<string, string>();
  try {
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      if (attempt > 0) await backoff(attempt);
      const current = await options.load();
      if (!current) throw new NotFoundError(options.notFound);
      const next = await options.change(current);
      const [oldName, newName] = [nameOf(current), nameOf(next)];
      const renamed = names !== undefined && textKey(newName) !== textKey(oldName);
      if (renamed && !releasable.has(textKey(newName))) {
        if (!(await names.claim(newName))) throw new ConflictError(names.conflict(newName));
        releasable.set(textKey(newName), newName);
      }
      if (await options.save(next, current.revision)) {
        if (renamed) releasable.set(textKey(oldName), oldName);
        return { before: current, after: next };
      }
    }
    throw new ConflictError(
      `${options.what} was changed by other requests at the same time; retry the request`,
    );
  } finally {
    if (names && releasable.size) {
      const latest = await options.load();
      const heldNames = options.heldNames ?? ((entry: T) => [nameOf(entry)]);
      const held = new Set(latest ? heldNames(latest).map(textKey) : []);
      for (const [key, name] of releasable) {
        if (!held.has(key)) await names.release(name);
      }
    }
  }
}
