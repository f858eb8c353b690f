import { constantTimeEqual, hashSecret, randomAlphanumeric, verifySecret } from './secrets';

describe('randomAlphanumeric', () => {
  it('gives letters and digits of the asked length', () => {
    for (const length of [1, 48, 64, 200]) {
      expect(randomAlphanumeric(length)).toMatch(new RegExp(`^[A-Za-z0-9]{${length}}$`));
    }
    expect(randomAlphanumeric(64)).not.toBe(randomAlphanumeric(64));
  });
});

describe('scrypt hashes', () => {
  it('stores the parameters and a random salt, and verifies', async () => {
    const secret = randomAlphanumeric(64);
    const first = await hashSecret(secret);
    const second = await hashSecret(secret);
    expect(first).toMatch(/^scrypt\$16384\$8\$1\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
    expect(first).not.toBe(second);
    expect(first).not.toContain(secret);
    await expect(verifySecret(secret, first)).resolves.toBe(true);
    await expect(verifySecret(secret, second)).resolves.toBe(true);
  });

  it('refuses a wrong secret and malformed hashes', async () => {
    const stored = await hashSecret('right');
    await expect(verifySecret('wrong', stored)).resolves.toBe(false);
    await expect(verifySecret('', stored)).resolves.toBe(false);
    await expect(verifySecret('right', 'plain')).resolves.toBe(false);
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
