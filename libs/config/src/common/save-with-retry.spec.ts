import { NotFoundError } from '@app/shared';
import { saveWithRetry, type NameClaims } from './save-with-retry';

interface Entry {
  revision: number;
  Name: string;
  Tags: string[];
}

/** An in-memory store with the revision rule of the repositories. */
function store(initial: Entry) {
  let current: Entry | null = { ...initial };
  return {
    get: () => current,
    set: (entry: Entry | null) => {
      current = entry;
    },
    load: async () => (current ? { ...current, Tags: [...current.Tags] } : null),
    save: async (next: Entry, expected: number) => {
      if (!current || current.revision !== expected) return false;
      current = { ...next, revision: expected + 1 };
      return true;
    },
  };
}

function claims(taken: string[] = []) {
  const held = new Set(taken.map((name) => name.toLowerCase()));
  const log: string[] = [];
  const names: NameClaims = {
    claim: async (name) => {
      log.push(`claim ${name}`);
      if (held.has(name.toLowerCase())) return false;
      held.add(name.toLowerCase());
      return true;
    },
    release: async (name) => {
      log.push(`release ${name}`);
      held.delete(name.toLowerCase());
    },
    conflict: (name) => `${name} is taken`,
  };
  return { names, log, held };
}

describe('saveWithRetry', () => {
  it('recomputes the change on a fresh read after a lost race', async () => {
    const entries = store({ revision: 0, Name: 'A', Tags: [] });
    let raced = false;
    const { after } = await saveWithRetry({
      what: 'Entry 1',
      notFound: 'Entry 1 was not found',
      load: entries.load,
      save: async (next, expected) => {
        if (!raced) {
          raced = true;
          const other = entries.get() as Entry;
          entries.set({ ...other, revision: other.revision + 1, Tags: [...other.Tags, 'other'] });
        }
        return entries.save(next, expected);
      },
      change: async (current) => ({ ...current, Tags: [...current.Tags, 'mine'] }),
    });
    expect(after.Tags).toEqual(['other', 'mine']);
    expect(entries.get()).toEqual({ revision: 2, Name: 'A', Tags: ['other', 'mine'] });
  });

  it('claims a new name before saving and releases the old one after', async () => {
    const entries = store({ revision: 0, Name: 'Old', Tags: [] });
    const { names, log, held } = claims(['old']);
    await saveWithRetry({
      what: 'Entry 1',
      notFound: 'x',
      load: entries.load,
      save: entries.save,
      names,
      change: async (current) => ({ ...current, Name: 'New' }),
    });
    expect(log).toEqual(['claim New', 'release Old']);
    expect([...held]).toEqual(['new']);
  });

  it('answers 409 for a taken name and keeps no claim of a failed change', async () => {
    const entries = store({ revision: 0, Name: 'Old', Tags: [] });
    const taken = claims(['old', 'other']);
    await expect(
      saveWithRetry({
        what: 'Entry 1',
        notFound: 'x',
        load: entries.load,
        save: entries.save,
        names: taken.names,
        change: async (current) => ({ ...current, Name: 'Other' }),
      }),
    ).rejects.toThrow('Other is taken');

    const failing = claims(['old']);
    await expect(
      saveWithRetry({
        what: 'Entry 1',
        notFound: 'x',
        load: entries.load,
        save: async () => false,
        names: failing.names,
        change: async (current) => ({ ...current, Name: 'Fresh' }),
      }),
    ).rejects.toThrow('Entry 1 was changed by other requests at the same time; retry the request');
    expect(failing.log).toEqual(['claim Fresh', 'release Fresh']);
    expect(entries.get()?.Name).toBe('Old');
  });

  it('answers 404 when the entry is gone', async () => {
    const entries = store({ revision: 0, Name: 'A', Tags: [] });
    entries.set(null);
    const error = await saveWithRetry({
      what: 'Entry 1',
      notFound: 'Entry 1 was not found',
      load: entries.load,
      save: entries.save,
      change: async (current) => current,
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(NotFoundError);
  });
});
