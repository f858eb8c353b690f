import jwt from 'jsonwebtoken';
import { bearerTokenOf, issueAccessToken, verifyAccessToken } from './access-token';

const SECRET = 'test-secret';
const NOW = Date.UTC(2024, 2, 1, 12);

describe('access tokens', () => {
  const issue = () =>
    issueAccessToken({
      secret: SECRET,
      clientId: 'acme',
      userId: 'alice',
      scope: 'acme/alice',
      lifetimeSeconds: 3600,
      now: NOW,
    });

  it('carry sub, cid, jti, scope and exp from the lifetime, signed HS256', () => {
    const { token, claims } = issue();
    expect(jwt.decode(token, { complete: true })?.header.alg).toBe('HS256');
    expect(claims).toMatchObject({
      sub: 'alice',
      cid: 'acme',
      scope: 'acme/alice',
      exp: NOW / 1000 + 3600,
    });
    expect(claims.jti).toMatch(/^[0-9a-f-]{36}$/);
    expect(verifyAccessToken(token, SECRET, { now: NOW + 1000 })).toEqual({ ok: true, claims });
  });

  it('expire', () => {
    const { token } = issue();
    expect(verifyAccessToken(token, SECRET, { now: NOW + 3601_000 })).toEqual({
      ok: false,
      reason: 'expired',
    });
    expect(
      verifyAccessToken(token, SECRET, { now: NOW + 3601_000, ignoreExpiration: true }).ok,
    ).toBe(true);
  });

  it('refuse another key, another algorithm and foreign claims', () => {
    const { token } = issue();
    expect(verifyAccessToken(token, 'other', { now: NOW })).toEqual({
      ok: false,
      reason: 'invalid',
    });
    const none = jwt.sign({ sub: 'a', cid: 'b', jti: 'c', scope: 'd' }, '', { algorithm: 'none' });
    expect(verifyAccessToken(none, SECRET, { now: NOW }).ok).toBe(false);
    const foreign = jwt.sign({ sub: 'alice' }, SECRET, { expiresIn: 60 });
    expect(verifyAccessToken(foreign, SECRET).ok).toBe(false);
    expect(verifyAccessToken('garbage', SECRET).ok).toBe(false);
  });
});

describe('bearerTokenOf', () => {
  it('reads the Bearer scheme case-insensitively', () => {
    expect(bearerTokenOf('Bearer abc.def')).toBe('abc.def');
    expect(bearerTokenOf('bearer  abc')).toBe('abc');
    expect(bearerTokenOf('Bearer')).toBe('');
    expect(bearerTokenOf('Basic abc')).toBeNull();
    expect(bearerTokenOf('BearerX abc')).toBeNull();
    expect(bearerTokenOf(undefined)).toBeNull();
  });
});
