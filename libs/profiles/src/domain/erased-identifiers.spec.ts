import { identifierHash, identifiersOf, nameOf, normaliseIdentifier } from './erased-identifiers';
import { erasedProfile } from './profile-erasure';
import { partialData, partialProfile } from '../testing';

const data = partialData({
  IsActive: true,
  CustomerType: 'Customer',
  CustomerName: { FirstName: ' Ann ', LastName: 'LEE' },
  Emails: [
    { EmailAddress: 'Ann@Example.com ', IsActive: true },
    { EmailAddress: 'old@example.com', IsActive: false },
    { EmailAddress: 'ann@example.com', IsActive: true },
  ],
  PhoneNumbers: [{ PhoneNumber: '+1 (555) 010-0100', IsActive: true }],
  AlternateIds: [{ AlternateIdType: 'CRM', AlternateId: ' C-1 ', IsActive: true }],
});

describe('identifiers of an erased profile', () => {
  it('normalises each kind as profiles match it', () => {
    expect(normaliseIdentifier('email', '  Ann@Example.COM ')).toEqual({
      kind: 'email',
      value: 'ann@example.com',
    });
    expect(normaliseIdentifier('phone', '+1 (555) 010-0100')).toEqual({
      kind: 'phone',
      value: '15550100100',
    });
    expect(normaliseIdentifier('alternateId', ' C-1', 'crm ')).toEqual({
      kind: 'alternateId',
      value: 'crm\nc-1',
    });
    expect(normaliseIdentifier('name', nameOf({ FirstName: 'Ann', LastName: ' Lee' }))).toEqual({
      kind: 'name',
      value: 'ann lee',
    });
    expect(normaliseIdentifier('phone', 'no digits')).toBeNull();
    expect(normaliseIdentifier('name', nameOf(undefined))).toBeNull();
  });

  it('takes every email, phone, alternate id (inactive ones too) and the name, each once', () => {
    expect(identifiersOf(data)).toEqual([
      { kind: 'email', value: 'ann@example.com' },
      { kind: 'email', value: 'old@example.com' },
      { kind: 'phone', value: '15550100100' },
      { kind: 'alternateId', value: 'crm\nc-1' },
      { kind: 'name', value: 'ann lee' },
    ]);
    expect(identifiersOf(undefined)).toEqual([]);
  });

  it('hashes with the secret: the same identifier matches, another secret does not', () => {
    const secret = Buffer.alloc(32, 1);
    const one = identifierHash(secret, { kind: 'email', value: 'ann@example.com' });
    expect(one).toMatch(/^[0-9a-f]{64}$/);
    expect(identifierHash(secret, normaliseIdentifier('email', 'ANN@example.com')!)).toBe(one);
    expect(
      identifierHash(Buffer.alloc(32, 2), { kind: 'email', value: 'ann@example.com' }),
    ).not.toBe(one);
    // The kind is part of what is hashed: a phone's digits never match an alternate id.
    expect(identifierHash(secret, { kind: 'name', value: 'ann@example.com' })).not.toBe(one);
  });
});

describe('the erased profile document', () => {
  it('keeps its ids, sequence numbers and event log, and nothing else', () => {
    const profile = partialProfile({
      _id: 'c|7',
      clientId: 'c',
      profileId: 7,
      state: 'active',
      appliedSeq: 9,
      data,
      historyPages: 3,
      historyRefs: '{"email:ann@example.com":"c|7|2|0"}',
      historyChainHead: 'abc',
      lastFailure: { seq: 8, reason: 'AlternateId "ann@example.com" ...', at: new Date() },
      eventLog: [{ seq: 9, at: 1 }],
      nextExpiryAt: new Date(),
    });
    const erased = erasedProfile(profile);
    expect(erased).toEqual({
      _id: 'c|7',
      clientId: 'c',
      profileId: 7,
      state: 'deleted',
      appliedSeq: 9,
      historyPages: 0,
      eventLog: [{ seq: 9, at: 1 }],
    });
    expect(JSON.stringify(erased)).not.toMatch(/ann/i);
  });
});
