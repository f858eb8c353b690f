import { Injectable } from '@nestjs/common';
import { Settings } from '@app/shared';
import { issueAccessToken } from '../domain/access-token';
import { OAUTH_CLIENT_ID_LENGTH, verifySecret } from '../domain/secrets';
import {
  checkTokenRequestShape,
  decideTokenRequest,
  parseScope,
  readTokenRequest,
  TOKEN_ERRORS,
} from '../domain/token-request';
import { tokenRequestError } from '../auth-errors';
import { ClientRepository } from '../repositories/client.repository';
import { OAuthClientRepository } from '../repositories/oauth-client.repository';
import { UserRepository } from '../repositories/user.repository';

/** The body of a successful token response. */
export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  scope: string;
}

/** The OAuth 2.0 client-credentials grant (`POST /oauth2/v1/token`). No refresh tokens. */
@Injectable()
export class TokenService {
  constructor(
    private readonly oauthClients: OAuthClientRepository,
    private readonly clients: ClientRepository,
    private readonly users: UserRepository,
    private readonly settings: Settings,
  ) {}

  /** A token, or an ApiError (400, `{error, error_description, Message}`). */
  async issue(
    body: unknown,
    authorization: string | undefined,
    now = Date.now(),
  ): Promise<TokenResponse> {
    const request = readTokenRequest(body, authorization);
    const shapeError = checkTokenRequestShape(request);
    if (shapeError) throw tokenRequestError(shapeError);

    const oauthClientId = request.clientId ?? '';
    const oauthClient =
      oauthClientId.length === OAUTH_CLIENT_ID_LENGTH
        ? await this.oauthClients.findById(oauthClientId)
        : null;
    const secretValid =
      oauthClient !== null && request.clientSecret !== undefined
        ? await verifySecret(request.clientSecret, oauthClient.secretHash)
        : false;

    const scope = parseScope(request.scope);
    const lookUpUser =
      oauthClient !== null &&
      secretValid &&
      scope !== null &&
      scope.clientId === oauthClient.clientId;
    const client = lookUpUser ? await this.clients.findById(oauthClient.clientId) : null;
    const user = client && scope ? await this.users.find(client.clientId, scope.userId) : null;

    const error = decideTokenRequest(request, {
      oauthClientTenant: oauthClient?.clientId ?? null,
      secretValid,
      userActive: user?.isActive === true,
    });
    if (error) throw tokenRequestError(error);
    // decideTokenRequest granted, so these are set; the check keeps the types honest.
    if (!client || !user || !request.scope) throw tokenRequestError(TOKEN_ERRORS.accessDenied);

    const lifetime = client.tokenLifetimeSeconds;
    const { token } = issueAccessToken({
      secret: this.settings.jwtSecret,
      clientId: client.clientId,
      userId: user.userId,
      scope: request.scope,
      lifetimeSeconds: lifetime,
      now,
    });
    return {
      access_token: token,
      token_type: 'Bearer',
      expires_in: lifetime,
      scope: request.scope,
    };
  }
}
