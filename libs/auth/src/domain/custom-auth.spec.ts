import { createHash, createHmac } from 'node:crypto';
import {
  checkIssuedTime,
  computeSignature,
  CUSTOM_AUTH_MESSAGES,
  isSignatureValid,
  parseCustomAuthHeader,
  parseCustomAuthScheme,
  parseIssuedTimestamp,
  signatureMessage,
  type CustomAuthScheme,
} from './custom-auth';

const KEY = 'k3y-of-the-tenant';
const CLIENT = 'Acme';
const TIMESTAMP = '2024-03-01T12:00:00Z';

function scheme(name: string): CustomAuthScheme {
  const parsed = parseCustomAuthScheme(name);
  if (!parsed) throw new Error(`not a scheme: ${name}`);
  return parsed;
}

describe('parseCustomAuthScheme', () => {
  it.each([
    ['CUSTOMAUTH3-HMAC-SHA256', true, 'SHA256'],
    ['CUSTOMAUTH3-HMAC-SHA384', true, 'SHA384'],
    ['CUSTOMAUTH3-HMAC-SHA512', true, 'SHA512'],
    ['CUSTOMAUTH3-SHA256', false, 'SHA256'],
    ['CUSTOMAUTH3-SHA384', false, 'SHA384'],
    ['CUSTOMAUTH3-SHA512', false, 'SHA512'],
    ['customauth3-hmac-sha256', true, 'SHA256'],
    ['CustomAuth3-Sha512', false, 'SHA512'],
  ])('%s', (name, keyed, hash) => {
    expect(parseCustomAuthScheme(name)).toEqual({ name: name.toUpperCase(), keyed, hash });
  });

  it.each([
    'Bearer',
    'Basic',
    'CUSTOMAUTH3',
    'CUSTOMAUTH3-MD5',
    'CUSTOMAUTH2-HMAC-SHA256',
    'CUSTOMAUTH3-HMAC-SHA1',
    'XCUSTOMAUTH3-SHA256',
  ])('refuses %s', (name) => {
    expect(parseCustomAuthScheme(name)).toBeNull();
  });
});

describe('signatures (expected digests computed independently)', () => {
  const cases: Array<[string, string]> = [
    ['CUSTOMAUTH3-HMAC-SHA256', 'sha256'],
    ['CUSTOMAUTH3-HMAC-SHA384', 'sha384'],
    ['CUSTOMAUTH3-HMAC-SHA512', 'sha512'],
  ];
  it.each(cases)(
    '%s is the HMAC of ClientId:UserId:Timestamp keyed with the APIHashKey',
    (name, algorithm) => {
      const expected = createHmac(algorithm, KEY)
        .update(`${CLIENT}:alice:${TIMESTAMP}`)
        .digest('base64');
      const input = { clientId: CLIENT, userId: 'alice', timestamp: TIMESTAMP, key: KEY };
      expect(computeSignature(scheme(name), input)).toBe(expected);
      expect(isSignatureValid(scheme(name), input, expected)).toBe(true);
    },
  );

  const plain: Array<[string, string]> = [
    ['CUSTOMAUTH3-SHA256', 'sha256'],
    ['CUSTOMAUTH3-SHA384', 'sha384'],
    ['CUSTOMAUTH3-SHA512', 'sha512'],
  ];
  it.each(plain)('%s is the hash of Key:ClientId:UserId:Timestamp:Key', (name, algorithm) => {
    const expected = createHash(algorithm)
      .update(`${KEY}:${CLIENT}:alice:${TIMESTAMP}:${KEY}`)
      .digest('base64');
    const input = { clientId: CLIENT, userId: 'alice', timestamp: TIMESTAMP, key: KEY };
    expect(computeSignature(scheme(name), input)).toBe(expected);
    expect(isSignatureValid(scheme(name), input, expected)).toBe(true);
  });

  it('builds the messages of both kinds', () => {
    const input = { clientId: CLIENT, userId: 'bob%20smith', timestamp: TIMESTAMP, key: KEY };
    expect(signatureMessage(scheme('CUSTOMAUTH3-HMAC-SHA256'), input)).toBe(
      `Acme:bob%20smith:${TIMESTAMP}`,
    );
    expect(signatureMessage(scheme('CUSTOMAUTH3-SHA256'), input)).toBe(
      `${KEY}:Acme:bob%20smith:${TIMESTAMP}:${KEY}`,
    );
  });

  it('is sensitive to the exact client id, user id, timestamp and key', () => {
    const s = scheme('CUSTOMAUTH3-HMAC-SHA256');
    const input = { clientId: CLIENT, userId: 'alice', timestamp: TIMESTAMP, key: KEY };
    const signature = computeSignature(s, input);
    expect(isSignatureValid(s, { ...input, clientId: 'acme' }, signature)).toBe(false);
    expect(isSignatureValid(s, { ...input, userId: 'Alice' }, signature)).toBe(false);
    expect(
      isSignatureValid(s, { ...input, timestamp: '2024-03-01T12:00:00+00:00' }, signature),
    ).toBe(false);
    expect(isSignatureValid(s, { ...input, key: 'other' }, signature)).toBe(false);
    expect(isSignatureValid(s, input, signature.toLowerCase())).toBe(false);
    expect(isSignatureValid(s, input, '')).toBe(false);
  });

  it('signs a URL-encoded user id as it appears in Credential', () => {
    const encoded = encodeURIComponent('bob smith+co@example.com');
    const expected = createHmac('sha256', KEY)
      .update(`${CLIENT}:${encoded}:${TIMESTAMP}`)
      .digest('base64');
    const header = `CUSTOMAUTH3-HMAC-SHA256 Credential=${encoded}/${TIMESTAMP} Signature=${expected}`;
    const parsed = parseCustomAuthHeader(header);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.credentials.userIdAsSent).toBe('bob%20smith%2Bco%40example.com');
    expect(parsed.credentials.userId).toBe('bob smith+co@example.com');
    const input = {
      clientId: CLIENT,
      userId: parsed.credentials.userIdAsSent,
      timestamp: parsed.credentials.timestamp,
      key: KEY,
    };
    expect(isSignatureValid(parsed.credentials.scheme, input, parsed.credentials.signature)).toBe(
      true,
    );
  });
});

describe('parseCustomAuthHeader', () => {
  const signature = 'c2lnbmF0dXJlPT0=';

  it('reads scheme, credential and signature', () => {
    const parsed = parseCustomAuthHeader(
      `customauth3-sha384 Credential=alice/${TIMESTAMP} Signature=${signature}`,
    );
    expect(parsed).toEqual({
      ok: true,
      credentials: {
        schemeAsSent: 'customauth3-sha384',
        scheme: { name: 'CUSTOMAUTH3-SHA384', keyed: false, hash: 'SHA384' },
        userIdAsSent: 'alice',
        userId: 'alice',
        timestamp: TIMESTAMP,
        signature,
      },
    });
  });

  it('splits Credential at the first slash', () => {
    const parsed = parseCustomAuthHeader(
      `CUSTOMAUTH3-HMAC-SHA256 Credential=al%2Fice/${TIMESTAMP} Signature=x`,
    );
    expect(parsed.ok && parsed.credentials.userId).toBe('al/ice');
  });

  it('accepts parameters in either order and comma separators', () => {
    const parsed = parseCustomAuthHeader(
      `CUSTOMAUTH3-HMAC-SHA256 Signature=${signature}, Credential=alice/${TIMESTAMP}`,
    );
    expect(parsed.ok && parsed.credentials.signature).toBe(signature);
  });

  it('reports a missing header', () => {
    expect(parseCustomAuthHeader(undefined)).toEqual({ ok: false, failure: 'missing-header' });
    expect(parseCustomAuthHeader('  ')).toEqual({ ok: false, failure: 'missing-header' });
  });

  it('reports an invalid scheme with the scheme as sent', () => {
    expect(parseCustomAuthHeader('Basic abc')).toEqual({
      ok: false,
      failure: 'invalid-scheme',
      schemeAsSent: 'Basic',
    });
  });

  it.each([
    'CUSTOMAUTH3-HMAC-SHA256',
    `CUSTOMAUTH3-HMAC-SHA256 Credential=alice/${TIMESTAMP}`,
    'CUSTOMAUTH3-HMAC-SHA256 Signature=abc',
    `CUSTOMAUTH3-HMAC-SHA256 Credential=alice${TIMESTAMP} Signature=abc`,
    `CUSTOMAUTH3-HMAC-SHA256 Credential=/${TIMESTAMP} Signature=abc`,
    'CUSTOMAUTH3-HMAC-SHA256 Credential=alice/ Signature=abc',
    `CUSTOMAUTH3-HMAC-SHA256 Credential=alice/${TIMESTAMP} Signature=abc Extra=1`,
    `CUSTOMAUTH3-HMAC-SHA256 Credential=alice/${TIMESTAMP} Signature=abc Signature=abc`,
    `CUSTOMAUTH3-HMAC-SHA256 Credential=al%ZZice/${TIMESTAMP} Signature=abc`,
    `CUSTOMAUTH3-HMAC-SHA256 Credential=alice/${TIMESTAMP} junk`,
  ])('incomplete or malformed parameters are a generic failure: %s', (header) => {
    const parsed = parseCustomAuthHeader(header);
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.failure).toBe('generic');
    expect(parsed.schemeAsSent).toBe('CUSTOMAUTH3-HMAC-SHA256');
  });
});

describe('parseIssuedTimestamp', () => {
  const utc = Date.UTC(2024, 2, 1, 12, 0, 0);

  it.each([
    ['2024-03-01T12:00:00Z', utc],
    ['2024-03-01T12:00:00+00:00', utc],
    ['2024-03-01T12:00:00', utc],
    ['2024-03-01T12:00:00.000Z', utc],
    ['2024-03-01T07:00:00-05:00', utc],
    ['2024-03-01T08:00:00-04:00', utc],
    ['2024-07-01T08:00:00-04:00', Date.UTC(2024, 6, 1, 12)],
    ['20240301T120000Z', utc],
  ])('accepts %s', (text, expected) => {
    expect(parseIssuedTimestamp(text)).toBe(expected);
  });

  it.each([
    '2024-03-01T13:00:00+01:00',
    '2024-03-01T04:00:00-08:00',
    '2024-03-01T06:00:00-06:00',
    '2024-03-01T17:30:00+05:30',
    'yesterday',
    '12:00:00',
    '2024-13-01T00:00:00Z',
    '2024-03-01 12:00:00Z',
    '1709294400',
    '',
  ])('refuses %s', (text) => {
    expect(parseIssuedTimestamp(text)).toBeNull();
  });
});

describe('checkIssuedTime', () => {
  const now = Date.UTC(2024, 2, 1, 12, 0, 0);

  it('accepts a time within the window', () => {
    expect(checkIssuedTime(now, now, 900)).toBe('ok');
    expect(checkIssuedTime(now - 900_000, now, 900)).toBe('ok');
  });

  it('refuses a time in the future', () => {
    expect(checkIssuedTime(now + 1000, now, 900)).toBe('future-timestamp');
  });

  it('refuses a time older than the window', () => {
    expect(checkIssuedTime(now - 900_001, now, 900)).toBe('window-exceeded');
    expect(checkIssuedTime(now - 61_000, now, 60)).toBe('window-exceeded');
    expect(checkIssuedTime(now - 61_000, now, 3600)).toBe('ok');
  });
});

describe('messages', () => {
  it('are distinct per condition and name the scheme rule', () => {
    const messages = Object.values(CUSTOM_AUTH_MESSAGES);
    expect(new Set(messages).size).toBe(messages.length);
    expect(CUSTOM_AUTH_MESSAGES['invalid-scheme']).toContain('CUSTOMAUTH3- or CUSTOMAUTH3-HMAC-');
    expect(CUSTOM_AUTH_MESSAGES['missing-header']).toBe('Authorization header missing');
  });
});
