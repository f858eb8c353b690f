import { confirmationToken, verifyConfirmationToken } from './confirmation-link';

const KEY = Buffer.alloc(32, 7);
const claims = {
  clientId: 'acme.eu',
  profileId: 42,
  confirmationId: 'AbCdEfGhIjKlMnOpQrStUv',
  expiresAt: 2_000_000_000,
};

describe('confirmation link tokens', () => {
  it('verify what they were signed with, until they expire', () => {
    const token = confirmationToken(claims, KEY);
    expect(verifyConfirmationToken(token, KEY, 1_999_999_999_000)).toEqual({ claims });
    expect(verifyConfirmationToken(token, KEY, 2_000_000_000_000)).toEqual({ refused: 'expired' });
  });

  it('refuse an altered part, another key, or a malformed token', () => {
    const token = confirmationToken(claims, KEY);
    const parts = token.split('.');
    const altered = [
      [parts[0], '43', ...parts.slice(2)].join('.'),
      [...parts.slice(0, 3), '2000000001', parts[4]].join('.'),
      `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`,
    ];
    for (const bad of altered)
      expect(verifyConfirmationToken(bad, KEY, 0)).toEqual({ refused: 'invalid' });
    expect(verifyConfirmationToken(token, Buffer.alloc(32, 8), 0)).toEqual({ refused: 'invalid' });
    expect(verifyConfirmationToken('not-a-token', KEY, 0)).toEqual({ refused: 'invalid' });
  });
});
