import { tenantKey } from '@app/shared';
import { Test } from '@nestjs/testing';
import { ProgramCatalog } from '@app/config';
import { type ProfileData, ProfileWriteQueue } from '@app/profiles';
import type { DncEntry } from '../domain/dnc-list.schema';
import type { DncApplyWrite } from '../domain/do-not-contact-marks';
import { DoNotContactLists } from './do-not-contact-lists.service';
import { DoNotContactMarks } from './do-not-contact-marks.service';

/**
 * The seam between Consents and Profiles: DoNotContactMarks (the apply extension Consents plugs
 * into the profile write pipeline) runs here against in-memory fakes of the port Profiles
 * exports (ProfileWriteQueue) and of the lists, as it would against an HTTP or queue
 * adapter of a profiles service lifted out of this one.
 */
describe('DoNotContactMarks against fakes of the ProfileWriteQueue and DoNotContactLists ports', () => {
  const entry = (over: Partial<DncEntry>): DncEntry => ({
    _id: tenantKey('acme', 1, 'x'),
    clientId: 'acme',
    listId: 1,
    ListType: 'Email',
    Value: 'Listed@Example.com',
    key: 'listed@example.com',
    state: 'listed',
    changedAt: new Date(0),
    changedBy: 'admin',
    version: 1,
    propagatedAt: null,
    cursor: 0,
    ...over,
  });

  async function marks(listed: DncEntry[], alreadyQueued: DncApplyWrite[] = []) {
    const asked: { listType: string; keys: string[] }[] = [];
    const lists: Pick<DoNotContactLists, 'listedWithKeys'> = {
      listedWithKeys: async (clientId, listType, keys) => {
        asked.push({ listType, keys });
        return listed.filter(
          (e) => e.clientId === clientId && e.ListType === listType && keys.includes(e.key),
        );
      },
    };
    const accepted: { profileId: number; kind: string; body?: object }[] = [];
    const module = await Test.createTestingModule({
      providers: [
        DoNotContactMarks,
        { provide: DoNotContactLists, useValue: lists },
        { provide: ProgramCatalog, useValue: { doNotContactFilter: async () => null } },
        {
          provide: ProfileWriteQueue,
          useValue: {
            queue: async (write: (typeof accepted)[number]) => void accepted.push(write),
            pendingBodies: (async (_profile: unknown, _seq: number, kind: string) =>
              kind === 'dnc-apply' ? alreadyQueued : []) as ProfileWriteQueue['pendingBodies'],
          } satisfies Pick<ProfileWriteQueue, 'queue' | 'pendingBodies'>,
        },
      ],
    }).compile();
    return { service: module.get(DoNotContactMarks), asked, accepted };
  }

  const data = (emails: string[], phones: string[] = []): ProfileData =>
    ({
      Emails: emails.map((EmailAddress) => ({ EmailAddress })),
      PhoneNumbers: phones.map((PhoneNumber) => ({ PhoneNumber })),
    }) as unknown as ProfileData;

  it('asks the port only for contacts the write added, and queues a mark for each listed one', async () => {
    const { service, asked, accepted } = await marks([
      entry({}),
      entry({ ListType: 'Phone', key: '15551234567', listId: 2 }),
    ]);
    const queued = await service.beforeSave('acme', [
      {
        write: { clientId: 'acme', profileId: 7, seq: 3 },
        before: data(['kept@example.com']),
        after: data(['kept@example.com', ' LISTED@example.com '], ['+1 (555) 123-4567']),
      },
    ]);
    expect(asked).toEqual([
      { listType: 'Email', keys: ['listed@example.com'] },
      { listType: 'Phone', keys: ['15551234567'] },
    ]);
    expect(queued).toBe(2);
    expect(accepted.map((w) => [w.profileId, w.kind, (w.body as DncApplyWrite).Key])).toEqual([
      [7, 'dnc-apply', 'listed@example.com'],
      [7, 'dnc-apply', '15551234567'],
    ]);
  });

  it('does not queue a mark an earlier attempt of the same write already queued', async () => {
    const { service, accepted } = await marks(
      [entry({})],
      [{ Channel: 'Email', Key: 'listed@example.com', ListId: 1, Listed: true }],
    );
    const queued = await service.beforeSave('acme', [
      { write: { clientId: 'acme', profileId: 7, seq: 3 }, after: data(['listed@example.com']) },
    ]);
    expect(queued).toBe(0);
    expect(accepted).toEqual([]);
  });

  it('for many new profiles of one client, asks the port once per list type and marks each profile holding a listed value', async () => {
    const { service, asked, accepted } = await marks([
      entry({}),
      entry({ ListType: 'Phone', key: '15551234567', listId: 2 }),
    ]);
    const queued = await service.beforeSave('acme', [
      { write: { clientId: 'acme', profileId: 1, seq: 1 }, after: data(['listed@example.com']) },
      { write: { clientId: 'acme', profileId: 2, seq: 1 }, after: data(['other@example.com']) },
      {
        write: { clientId: 'acme', profileId: 3, seq: 1 },
        after: data(['LISTED@example.com'], ['+1 555 123 4567']),
      },
    ]);
    expect(asked).toEqual([
      { listType: 'Email', keys: ['listed@example.com', 'other@example.com'] },
      { listType: 'Phone', keys: ['15551234567'] },
    ]);
    expect(queued).toBe(3);
    expect(accepted.map((write) => [write.profileId, (write.body as DncApplyWrite).Key])).toEqual([
      [1, 'listed@example.com'],
      [3, 'listed@example.com'],
      [3, '15551234567'],
    ]);
  });
});
