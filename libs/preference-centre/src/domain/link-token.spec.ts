import { randomBytes } from 'node:crypto';
import {
  linkParameters,
  type LinkClaims,
  parseScope,
  scopeParameter,
  verifyLink,
} from './link-token';
import { localeChain, localisedTags, pageLanguage } from './localise';

describe('preference centre links', () => {
  const key = randomBytes(32);
  const now = new Date('2026-06-01T00:00:00Z');
  const claims: LinkClaims = {
    clientId: 'acme',
    profileId: 42,
    expiresAt: Math.floor(now.getTime() / 1000) + 3600,
    purpose: { kind: 'page' },
  };
  const params = linkParameters(claims, key);

  it('verifies its own links and refuses any altered part', () => {
    expect(verifyLink('acme', params, 'page', key, now)).toEqual({ claims });
    const refused = { refused: 'invalid' };
    expect(verifyLink('other', params, 'page', key, now)).toEqual(refused);
    expect(verifyLink('acme', { ...params, p: '43' }, 'page', key, now)).toEqual(refused);
    expect(
      verifyLink('acme', { ...params, e: String(claims.expiresAt + 1) }, 'page', key, now),
    ).toEqual(refused);
    expect(
      verifyLink(
        'acme',
        { ...params, s: params.s.replace(/^./, (c) => (c === 'A' ? 'B' : 'A')) },
        'page',
        key,
        now,
      ),
    ).toEqual(refused);
    expect(verifyLink('acme', params, 'page', randomBytes(32), now)).toEqual(refused);
    expect(verifyLink('acme', params, 'page', null, now)).toEqual(refused);
    expect(verifyLink('acme', { ...params, u: 'all' }, 'page', key, now)).toEqual(refused);
    expect(verifyLink('acme', { ...params, u: 'all' }, 'unsubscribe', key, now)).toEqual(refused);
    expect(verifyLink('acme', { ...params, p: ['42'] }, 'page', key, now)).toEqual(refused);
  });

  it('refuses an intact link after its expiry, and an altered one as altered', () => {
    const later = new Date((claims.expiresAt + 1) * 1000);
    expect(verifyLink('acme', params, 'page', key, later)).toEqual({ refused: 'expired' });
    expect(verifyLink('acme', { ...params, p: '7' }, 'page', key, later)).toEqual({
      refused: 'invalid',
    });
  });

  it('signs the scope of an unsubscribe link', () => {
    const scope = { kind: 'program' as const, programId: 3, channel: 'Text/SMS' };
    const signed = linkParameters({ ...claims, purpose: { kind: 'unsubscribe', scope } }, key);
    expect(signed.u).toBe('3:Text/SMS');
    expect(verifyLink('acme', signed, 'unsubscribe', key, now)).toEqual({
      claims: { ...claims, purpose: { kind: 'unsubscribe', scope } },
    });
    expect(verifyLink('acme', { ...signed, u: 'all' }, 'unsubscribe', key, now)).toEqual({
      refused: 'invalid',
    });
    expect(verifyLink('acme', signed, 'page', key, now)).toEqual({ refused: 'invalid' });
    expect(parseScope(scopeParameter({ kind: 'all' }))).toEqual({ kind: 'all' });
    expect(parseScope('0')).toBeNull();
    expect(parseScope('x')).toBeNull();
  });
});

describe('preference centre localisation', () => {
  it('tries the locale, its language, en-US, en', () => {
    expect(localeChain('fr_CA')).toEqual(['fr-ca', 'fr', 'en-us', 'en']);
    expect(localeChain(undefined)).toEqual(['en-us', 'en']);
    expect(pageLanguage('fr_CA')).toBe('fr-CA');
    expect(pageLanguage('"><script>')).toBe('en-US');
  });

  it('names a program from its display tags, else its configured name', () => {
    const locales = [
      { ID: 'en-US', DisplayTags: [{ Key: 'Title', Value: 'Deals' }] },
      {
        ID: 'fr',
        DisplayTags: [
          { Key: 'DisplayName', Value: 'Bons plans' },
          { Key: 'Description', Value: 'Chaque semaine' },
        ],
      },
    ];
    expect(localisedTags(locales, localeChain('fr-CA'), 'Name')).toEqual({
      name: 'Bons plans',
      description: 'Chaque semaine',
    });
    expect(localisedTags(locales, localeChain('de-DE'), 'Name')).toEqual({ name: 'Deals' });
    expect(localisedTags([], localeChain('de-DE'), 'Name', 'D')).toEqual({
      name: 'Name',
      description: 'D',
    });
  });
});
