import { createHash, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

/** Length of an OAuth client secret (spec, Limits). */
export const CLIENT_SECRET_LENGTH = 64;
/** Length of an OAuth client id (spec, Limits). */
export const OAUTH_CLIENT_ID_LENGTH = 48;
/** Length of a generated APIHashKey (the CUSTOMAUTH3 private key). */
export const API_HASH_KEY_LENGTH = 64;

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** Uniformly random letters and digits (rejection sampling, no modulo bias). */
export function randomAlphanumeric(length: number): string {
  const limit = 256 - (256 % ALPHANUMERIC.length); // 248: bytes at or above are dropped
  let result = '';
  while (result.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < limit) result += ALPHANUMERIC[byte % ALPHANUMERIC.length];
      if (result.length === length) break;
    }
  }
  return result;
}

/** scrypt parameters of newly stored hashes; the stored string carries its own. */
const SCRYPT = { N: 16384, r: 8, p: 1, keyLength: 32, saltLength: 16 };

function scryptAsync(
  secret: string,
  salt: Buffer,
  keyLength: number,
  options: { N: number; r: number; p: number },
): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(
      secret,
      salt,
      keyLength,
      { ...options, maxmem: 256 * options.N * options.r },
      (error, key) => (error ? reject(error) : resolve(key)),
    ),
  );
}

/** `scrypt$<N>$<r>$<p>$<salt base64>$<hash base64>` with a random salt. */
export async function hashSecret(secret: string): Promise<string> {
  const salt = randomBytes(SCRYPT.saltLength);
  const hash = await scryptAsync(secret, salt, SCRYPT.keyLength, SCRYPT);
  return [
    'scrypt',
    SCRYPT.N,
    SCRYPT.r,
    SCRYPT.p,
    salt.toString('base64'),
    hash.toString('base64'),
  ].join('$');
}

/** Checks a secret against a stored hash in constant time; false for malformed hashes. */
export async function verifySecret(secret: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [N, r, p] = parts.slice(1, 4).map(Number);
  if (![N, r, p].every((n) => Number.isInteger(n) && n > 0)) return false;
  const salt = Buffer.from(parts[4], 'base64');
  const expected = Buffer.from(parts[5], 'base64');
  if (salt.length === 0 || expected.length === 0) return false;
  const actual = await scryptAsync(secret, salt, expected.length, { N, r, p });
  return timingSafeEqual(actual, expected);
}

/**
 * Compares two strings without revealing, through timing, where they differ or how
 * long the expected one is (both sides are hashed to equal length first).
 */
export function constantTimeEqual(a: string, b: string): boolean {
  const da = createHash('sha256').update(a, 'utf8').digest();
  const db = createHash('sha256').update(b, 'utf8').digest();
  return timingSafeEqual(da, db) && a.length === b.length;
}
