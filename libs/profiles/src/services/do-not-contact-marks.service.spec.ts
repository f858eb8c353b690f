import { Test } from '@nestjs/testing';
import { ProgramCatalog } from '@app/config';
import { DoNotContactLists, type DncEntry } from '@app/consents';
import type { DncApplyWrite } from '../domain/do-not-contact';
import type { ProfileData } from '../domain/profile-data.schema';
import { ProfileWriteRepository } from '../repositories/profile-write.repository';
import { DoNotContactMarks } from './do-not-contact-marks.service';
import { ProfileWriteIntake } from './profile-write-intake.service';

/**
 * The seam between profiles and the do-not-contact lists: DoNotContactMarks runs here
 * against an in-memory fake of the port the consents module exports (DoNotContactLists),
 * as it would against an HTTP client of a do-not-contact service lifted out of this one.
 */
describe('DoNotContactMarks against a fake of the DoNotContactLists port', () => {
  const entry = (over: Partial<DncEntry>): DncEntry => ({
    _id: 'x',
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
          provide: ProfileWriteIntake,
          useValue: { accept: async (write: (typeof accepted)[number]) => accepted.push(write) },
        },
        {
          provide: ProfileWriteRepository,
          useValue: {
            pendingAfter: async () =>
              alreadyQueued.map((body) => ({ kind: 'dnc-apply', body: JSON.stringify(body) })),
          },
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
    const queued = await service.markAddedContacts(
      'acme',
      7,
      3,
      data(['kept@example.com']),
      data(['kept@example.com', ' LISTED@example.com '], ['+1 (555) 123-4567']),
    );
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
    const queued = await service.markAddedContacts(
      'acme',
      7,
      3,
      undefined,
      data(['listed@example.com']),
    );
    expect(queued).toBe(0);
    expect(accepted).toEqual([]);
  });
});
