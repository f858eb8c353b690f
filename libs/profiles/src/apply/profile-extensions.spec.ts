import { tenantKey } from '@app/shared';
import type { Profile } from '../domain/profile.schema';
import type { ProfileEventRepository } from '../persistence/profile-event.repository';
import type { ProfileExtension, SavedProfile } from '../ports/profile-extension.port';
import { ProfileExtensions } from './profile-extensions.service';

function profile(profileId: number, appliedSeq = 1): Profile {
  return { _id: tenantKey('c', profileId), clientId: 'c', profileId, state: 'active', appliedSeq };
}

/** The composite over `extensions` (no events stored to read back). */
function extensionsOf(extensions: ProfileExtension[]): ProfileExtensions {
  const events = { find: async () => [] } as Pick<ProfileEventRepository, 'find'>;
  return new ProfileExtensions(extensions, events as ProfileEventRepository);
}

describe('ProfileExtensions', () => {
  it('wraps the read with each extension that loads, in the same call', async () => {
    const seen: string[] = [];
    const loading = (name: string): ProfileExtension => ({
      load: async (_clientId, _profileId, read) => {
        seen.push(`${name} before`);
        const found = await read();
        seen.push(`${name} after`);
        return found;
      },
    });
    const found = await extensionsOf([loading('a'), {}, loading('b')]).load('c', 1, async () => {
      seen.push('read');
      return profile(1);
    });
    expect(found?.profileId).toBe(1);
    expect(seen).toEqual(['b before', 'a before', 'read', 'a after', 'b after']);
  });

  it('calls beforeSave in order, one extension after the other, with the whole batch', async () => {
    const seen: string[] = [];
    const hook = (name: string): ProfileExtension => ({
      beforeSave: async (_clientId, writes) => {
        seen.push(`${name} start ${writes.length}`);
        await new Promise((resolve) => setImmediate(resolve));
        seen.push(`${name} end`);
      },
    });
    const write = (profileId: number) => ({ write: { clientId: 'c', profileId, seq: 1 } });
    await extensionsOf([hook('a'), hook('b')]).beforeSave('c', [write(1), write(2)]);
    expect(seen).toEqual(['a start 2', 'a end', 'b start 2', 'b end']);
  });

  it("runs every extension's afterSave even when one fails, then throws that failure", async () => {
    const heard: SavedProfile[][] = [];
    const failing: ProfileExtension = {
      afterSave: async () => {
        throw new Error('redis down');
      },
    };
    const listening: ProfileExtension = {
      afterSave: async (_clientId, saved) => {
        heard.push(saved);
      },
    };
    const saved = [{ profile: profile(1), events: [] }];
    await expect(extensionsOf([failing, listening]).afterSave('c', saved)).rejects.toThrow(
      'redis down',
    );
    expect(heard).toEqual([saved]);
  });

  it('chains prepare through the extensions that have one', () => {
    const tagged = (seq: number): ProfileExtension => ({
      prepare: (_start, end) => ({ ...end, appliedSeq: end.appliedSeq + seq }),
    });
    const prepared = extensionsOf([tagged(1), {}, tagged(10)]).prepare(profile(1), profile(1), []);
    expect(prepared.appliedSeq).toBe(12);
  });
});
