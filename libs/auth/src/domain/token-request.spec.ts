import {
  decideTokenRequest,
  parseBasicAuthorization,
  parseScope,
  readTokenRequest,
  tokenErrorMessage,
  type TokenRequest,
  type TokenRequestFacts,
} from './token-request';

const OAUTH_ID = 'A'.repeat(48);
const good: TokenRequest = {
  grantType: 'client_credentials',
  scope: 'acme/alice',
  clientId: OAUTH_ID,
  clientSecret: 's'.repeat(64),
};
const granted: TokenRequestFacts = {
  oauthClientTenant: 'acme',
  secretValid: true,
  userActive: true,
};

function messageOf(request: TokenRequest, facts: TokenRequestFacts = granted): string | null {
  const error = decideTokenRequest(request, facts);
  return error ? tokenErrorMessage(error) : null;
}

describe('decideTokenRequest', () => {
  it('grants a complete, valid request', () => {
    expect(messageOf(good)).toBeNull();
  });

  it('missing grant type', () => {
    expect(messageOf({ ...good, grantType: undefined })).toBe(
      'invalid_request: required parameters (grant_type) is missing',
    );
  });

  it('unsupported grant type', () => {
    expect(messageOf({ ...good, grantType: 'password' })).toBe(
      'invalid_request: unsupported value for field (grant_type)',
    );
  });

  it('missing client id', () => {
    expect(messageOf({ ...good, clientId: undefined })).toBe(
      'invalid_client: required parameter (client_id) is missing',
    );
  });

  it('incorrect client id names the value', () => {
    expect(messageOf({ ...good, clientId: 'nope' }, { ...granted, oauthClientTenant: null })).toBe(
      'invalid_client: invalid client_id nope',
    );
  });

  it('wrong or missing secret', () => {
    const failed = 'invalid_client: client authentication (client secret) failed';
    expect(messageOf(good, { ...granted, secretValid: false })).toBe(failed);
    expect(
      messageOf({ ...good, clientSecret: undefined }, { ...granted, secretValid: false }),
    ).toBe(failed);
  });

  it.each([
    ['missing', undefined],
    ['no slash', 'acme'],
    ['no user', 'acme/'],
    ['no client', '/alice'],
    ['another tenant', 'other/alice'],
    ['tenant case differs', 'ACME/alice'],
  ])('scope %s is access_denied', (_name, scope) => {
    expect(messageOf({ ...good, scope })).toBe('access_denied: admin policy denied access');
  });

  it('unknown or inactive user is access_denied', () => {
    expect(messageOf(good, { ...granted, userActive: false })).toBe(
      'access_denied: admin policy denied access',
    );
  });

  it('checks in the spec order', () => {
    const bad: TokenRequest = { grantType: 'password', scope: undefined, clientId: undefined };
    const none: TokenRequestFacts = {
      oauthClientTenant: null,
      secretValid: false,
      userActive: false,
    };
    expect(decideTokenRequest({ ...bad, grantType: undefined }, none)?.description).toContain(
      '(grant_type) is missing',
    );
    expect(decideTokenRequest(bad, none)?.description).toContain('unsupported value');
    expect(
      decideTokenRequest({ ...bad, grantType: 'client_credentials' }, none)?.description,
    ).toContain('(client_id) is missing');
    expect(decideTokenRequest({ ...good, scope: undefined }, none)?.description).toContain(
      'invalid client_id',
    );
    expect(
      decideTokenRequest({ ...good, scope: undefined }, { ...none, oauthClientTenant: 'acme' })
        ?.error,
    ).toBe('invalid_client');
  });
});

describe('readTokenRequest', () => {
  it('reads the form fields', () => {
    expect(
      readTokenRequest(
        {
          grant_type: 'client_credentials',
          scope: 'acme/alice',
          client_id: OAUTH_ID,
          client_secret: 'x',
        },
        undefined,
      ),
    ).toEqual({
      grantType: 'client_credentials',
      scope: 'acme/alice',
      clientId: OAUTH_ID,
      clientSecret: 'x',
    });
  });

  it('takes credentials from Basic authorization when the body has no client_id', () => {
    const header = `Basic ${Buffer.from(`${OAUTH_ID}:se:cret`).toString('base64')}`;
    expect(readTokenRequest({ grant_type: 'client_credentials' }, header)).toMatchObject({
      clientId: OAUTH_ID,
      clientSecret: 'se:cret',
    });
  });

  it('treats empty and repeated fields as missing, and no body as empty', () => {
    expect(readTokenRequest({ grant_type: '', client_id: ['a', 'b'] }, undefined)).toEqual({
      grantType: undefined,
      scope: undefined,
      clientId: undefined,
      clientSecret: undefined,
    });
    expect(readTokenRequest(undefined, undefined).grantType).toBeUndefined();
  });
});

describe('parseBasicAuthorization', () => {
  it('decodes and form-decodes both parts', () => {
    const header = `basic ${Buffer.from('id%3A1:p%40ss').toString('base64')}`;
    expect(parseBasicAuthorization(header)).toEqual({ clientId: 'id:1', clientSecret: 'p@ss' });
  });

  it('ignores other schemes and malformed values', () => {
    expect(parseBasicAuthorization('Bearer abc')).toBeNull();
    expect(
      parseBasicAuthorization(`Basic ${Buffer.from('nocolon').toString('base64')}`),
    ).toBeNull();
    expect(parseBasicAuthorization(undefined)).toBeNull();
  });
});

describe('parseScope', () => {
  it('splits at the first slash', () => {
    expect(parseScope('acme/alice/x')).toEqual({ clientId: 'acme', userId: 'alice/x' });
    expect(parseScope('acme')).toBeNull();
  });
});
