import {
  Body,
  Controller,
  createParamDecorator,
  type ExecutionContext,
  Header,
  HttpCode,
  Ip,
  Post,
} from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBody,
  ApiConsumes,
  ApiExtraModels,
  ApiOkResponse,
  ApiOperation,
  ApiProperty,
  ApiPropertyOptional,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import { TOKEN_REQUEST_EXAMPLES } from '../dto/token.examples';
import { ApiRetryAfterResponse, ErrorDto } from '@app/shared';
import { TokenService, type TokenResponse } from '../services/token.service';

/** The form fields of a token request (documentation only: the body is read as sent). */
class TokenRequestForm {
  @ApiProperty({ example: 'client_credentials', description: 'Must be client_credentials' })
  grant_type: string;

  @ApiProperty({ example: 'demo/alice', description: '<CLIENT_ID>/<USER_ID>' })
  scope: string;

  @ApiPropertyOptional({ description: '48-character OAuth client id (or use Basic authorization)' })
  client_id?: string;

  @ApiPropertyOptional({ description: '64-character client secret (or use Basic authorization)' })
  client_secret?: string;
}

class TokenResponseBody implements TokenResponse {
  @ApiProperty({ description: 'A JWT; send it as Authorization: Bearer <access_token>' })
  access_token: string;

  @ApiProperty({ enum: ['Bearer'] })
  token_type: 'Bearer';

  @ApiProperty({ example: 3600, description: 'Seconds until the token expires' })
  expires_in: number;

  @ApiProperty({ example: 'acme/alice' })
  scope: string;
}

/** What a token error adds to the service's error body (`Message`): OAuth's fields. */
class TokenErrorBody {
  @ApiProperty({
    enum: ['invalid_request', 'invalid_client', 'access_denied'],
    description:
      'invalid_request: grant_type missing or not client_credentials; invalid_client: client_id missing or unknown, or the secret wrong; access_denied: scope missing or not a user of the client',
  })
  error: string;

  @ApiProperty({ example: 'client authentication (client secret) failed' })
  error_description: string;
}

/** An error answer of the token endpoint: `{"Message", "error", "error_description"}`. */
const TOKEN_ERROR_SCHEMA = {
  allOf: [{ $ref: getSchemaPath(ErrorDto) }, { $ref: getSchemaPath(TokenErrorBody) }],
};

/**
 * The `Authorization` header of a token request (Basic client credentials), read as sent.
 * Not `@Headers()`, which the OpenAPI explorer would document as a required parameter:
 * the header is optional, and OpenAPI describes Authorization headers by security schemes.
 */
const AuthorizationHeader = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): string | undefined =>
    ctx.switchToHttp().getRequest<{ headers: Record<string, string | undefined> }>().headers
      .authorization,
);

/** `POST /oauth2/v1/token` (outside the /Profiles/v4 prefix). */
@ApiTags('Authentication')
@Controller('oauth2/v1')
export class TokenController {
  constructor(private readonly tokens: TokenService) {}

  @Post('token')
  @HttpCode(200)
  @Header('Cache-Control', 'no-store')
  @Header('Pragma', 'no-cache')
  @ApiOperation({
    summary: 'OAuth 2.0 client credentials grant',
    description:
      'Returns a Bearer access token for the user named in scope. The client authenticates with client_id and client_secret in the form, or with an Authorization: Basic base64(client_id:client_secret) header. No refresh tokens: request a new token after expiry.',
  })
  @ApiConsumes('application/x-www-form-urlencoded')
  @ApiBody({ type: TokenRequestForm, examples: TOKEN_REQUEST_EXAMPLES })
  @ApiExtraModels(TokenErrorBody)
  @ApiOkResponse({ type: TokenResponseBody })
  @ApiBadRequestResponse({ schema: TOKEN_ERROR_SCHEMA, description: 'The request was refused' })
  @ApiRetryAfterResponse({
    schema: TOKEN_ERROR_SCHEMA,
    description:
      'Too many failed client authentications of this client_id or from this address (TOKEN_FAILURE_LIMIT, TOKEN_FAILURE_LIMIT_PER_ADDRESS); Retry-After says when to retry',
  })
  issue(
    @Body() body: unknown,
    @Ip() address: string,
    @AuthorizationHeader() authorization?: string,
  ): Promise<TokenResponse> {
    return this.tokens.issue(body, authorization, Date.now(), address);
  }
}
