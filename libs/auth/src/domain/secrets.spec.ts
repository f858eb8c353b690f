import { randomBytes, scryptSync } from 'node:crypto';
import {
  constantTimeEqual,
  hashSecret,
  isLegacySecretHash,
  randomAlphanumeric,
  verifySecret,
} from './secrets';

describe('randomAlphanumeric', () => {
  it('gives letters and digits of the asked length', () => {
    for (const length of [1, 48, 64, 200]) {
      expect(randomAlphanumeric(length)).toMatch(new RegExp(`^[A-Za-z0-9]{${length}}$`));
    }
    expect(randomAlphanumeric(64)).not.toBe(randomAlphanumeric(64));
  });
});

describe('secret hashes', () => {
  it('stores a keyed hash with a random salt, and verifies', async () => {
    const secret = randomAlphanumeric(64);
    const first = hashSecret(secret);
    const second = hashSecret(secret);
    expect(first).toMatch(/^hmac-sha256\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]{44}$/);
    expect(first).not.toBe(second);
    expect(first).not.toContain(secret);
    expect(isLegacySecretHash(first)).toBe(false);
    await expect(verifySecret(secret, first)).resolves.toBe(true);
    await expect(verifySecret(secret, second)).resolves.toBe(true);
  });

  it('still verifies scrypt hashes stored by earlier versions', async () => {
    const salt = randomBytes(16);
    const hash = scryptSync('legacy-secret', salt, 32, { N: 1024, r: 8, p: 1 });
    const stored = ['scrypt', 1024, 8, 1, salt.toString('base64'), hash.toString('base64')].join(
      '$',
    );
    expect(isLegacySecretHash(stored)).toBe(true);
    await expect(verifySecret('legacy-secret', stored)).resolves.toBe(true);
    await expect(verifySecret('other', stored)).resolves.toBe(false);
  });

  it('refuses a wrong secret and malformed hashes', async () => {
    const stored = hashSecret('right');
    await expect(verifySecret('wrong', stored)).resolves.toBe(false);
    await expect(verifySecret('', stored)).resolves.toBe(false);
    await expect(verifySecret('right', 'plain')).resolves.toBe(false);
    await expect(verifySecret('right', 'hmac-sha256$$abc')).resolves.toBe(false);
    await expect(verifySecret('right', 'scrypt$x$8$1$abc$def')).resolves.toBe(false);
    await expect(verifySecret('right', 'scrypt$16384$8$1$$')).resolves.toBe(false);
  });
});

describe('constantTimeEqual', () => {
  it('compares strings of any length', () => {
    expect(constantTimeEqual('abc', 'abc')).toBe(true);
    expect(constantTimeEqual('abc', 'abd')).toBe(false);
    expect(constantTimeEqual('abc', 'abcd')).toBe(false);
    expect(constantTimeEqual('', '')).toBe(true);
  });
});
