import { applyPatchOperations, PatchRefusedError } from '@app/shared';
import {
  keepInactiveElements,
  orderPatchOperations,
  type ProfilePatchOperation,
} from './profile-patch';
import { partialData } from '../testing';

describe('profile PATCH operations', () => {
  it('moves replace operations before the first remove, keeping the rest in request order', () => {
    const ops: ProfilePatchOperation[] = [
      { op: 'add', path: '/A', value: 1 },
      { op: 'remove', path: '/Emails/0' },
      { op: 'test', path: '/B', value: 2 },
      { op: 'replace', path: '/Emails/1/IsDefault', value: true },
      { op: 'remove', path: '/C' },
      { op: 'replace', path: '/D', value: 3 },
    ];
    expect(orderPatchOperations(ops).map((o) => `${o.op} ${o.path}`)).toEqual([
      'add /A',
      'replace /Emails/1/IsDefault',
      'replace /D',
      'remove /Emails/0',
      'test /B',
      'remove /C',
    ]);
  });

  it('keeps the request order when there is no remove', () => {
    const ops: ProfilePatchOperation[] = [
      { op: 'replace', path: '/A', value: 1 },
      { op: 'add', path: '/B', value: 2 },
    ];
    expect(orderPatchOperations(ops)).toEqual(ops);
  });

  it('applies all or nothing: a failed test names the operation and changes nothing', () => {
    const doc = { A: 1, B: { C: 2 } };
    expect(() =>
      applyPatchOperations(doc, [
        { op: 'replace', path: '/A', value: 9 },
        { op: 'test', path: '/B/C', value: 3 },
      ]),
    ).toThrow(
      new PatchRefusedError(
        'Operations[1] (test /B/C) was refused: test failed: the value at the path differs; nothing was changed',
      ),
    );
    expect(doc).toEqual({ A: 1, B: { C: 2 } });
    expect(applyPatchOperations(doc, [{ op: 'replace', path: '/A', value: 9 }])).toEqual({
      A: 9,
      B: { C: 2 },
    });
  });

  it('puts back stored inactive elements the patched result does not name, at any depth', () => {
    const before = partialData({
      Emails: [
        {
          EmailAddress: 'a@x.com',
          IsActive: true,
          EmailPreferences: [
            { ProgramId: 'P', ChannelId: 'Email', FilterId: 'F', IsActive: false },
          ],
        },
        { EmailAddress: 'gone@x.com', IsActive: false },
      ],
      ProfileTags: [{ Name: 'old', Key: 'old', IsActive: false }],
    });
    const after = partialData({
      Emails: [{ EmailAddress: 'A@x.com', IsActive: true, EmailPreferences: [] }],
      ProfileTags: [],
    });
    const kept = keepInactiveElements(before, after);
    expect(kept.Emails.map((e) => e.EmailAddress)).toEqual(['A@x.com', 'gone@x.com']);
    expect(kept.Emails[0].EmailPreferences).toEqual([
      { ProgramId: 'P', ChannelId: 'Email', FilterId: 'F', IsActive: false },
    ]);
    expect(kept.ProfileTags).toEqual([{ Name: 'old', Key: 'old', IsActive: false }]);
  });
});
