import { challengeProblem, handshakeRequest, newChallenge, retryDelayMs } from './handshake';

describe('the handshake', () => {
  const challenge = 'a3f1c09e5b7d4e2f8a6c1b3d5e7f9a0b';

  it('draws 32 hex digits per challenge', () => {
    expect(newChallenge()).toMatch(/^[0-9a-f]{32}$/);
    expect(newChallenge()).not.toBe(newChallenge());
  });

  it('sends the type, the subscription and the challenge', () => {
    expect(handshakeRequest('s-1', challenge)).toEqual({
      Type: 'SubscriptionValidation',
      SubscriptionId: 's-1',
      Challenge: challenge,
    });
  });

  it('passes a 2xx answer with the challenge as text or as JSON', () => {
    expect(challengeProblem({ status: 200, body: challenge }, challenge)).toBeNull();
    expect(challengeProblem({ status: 200, body: `  ${challenge}\n` }, challenge)).toBeNull();
    expect(
      challengeProblem({ status: 201, body: JSON.stringify({ Challenge: challenge }) }, challenge),
    ).toBeNull();
  });

  it('fails another status, even with the challenge', () => {
    expect(challengeProblem({ status: 500, body: challenge }, challenge)).toBe(
      'the endpoint answered HTTP 500',
    );
    expect(challengeProblem({ status: 302, body: challenge }, challenge)).toBe(
      'the endpoint answered HTTP 302',
    );
  });

  it('fails a wrong or missing challenge', () => {
    expect(
      challengeProblem({ status: 200, body: JSON.stringify({ Challenge: 'nope' }) }, challenge),
    ).toBe('the endpoint answered a wrong challenge');
    expect(challengeProblem({ status: 200, body: '' }, challenge)).toMatch(/did not answer/);
    expect(challengeProblem({ status: 200, body: 'ok' }, challenge)).toMatch(/did not answer/);
    expect(
      challengeProblem({ status: 200, body: JSON.stringify({ challenge }) }, challenge),
    ).toMatch(/did not answer/);
    expect(challengeProblem({ status: 200, body: 'null' }, challenge)).toMatch(/did not answer/);
  });

  it('fails an answer too long to be read whole', () => {
    expect(challengeProblem({ status: 200, body: challenge, truncated: true }, challenge)).toMatch(
      /over 4096 bytes/,
    );
  });

  it('retries once per delay, then gives up', () => {
    const delays = [1000, 5000, 30000];
    expect(retryDelayMs(delays, 1)).toBe(1000);
    expect(retryDelayMs(delays, 2)).toBe(5000);
    expect(retryDelayMs(delays, 3)).toBe(30000);
    expect(retryDelayMs(delays, 4)).toBeNull();
    expect(retryDelayMs([], 1)).toBeNull();
  });
});
