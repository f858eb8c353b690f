import { Body, Controller, Header, Headers, HttpCode, Ip, Post } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBody,
  ApiConsumes,
  ApiHeader,
  ApiOkResponse,
  ApiOperation,
  ApiProperty,
  ApiPropertyOptional,
  ApiTags,
} from '@nestjs/swagger';
import { TokenService, type TokenResponse } from '../services/token.service';

/** The form fields of a token request (documentation only: the body is read as sent). */
class TokenRequestForm {
  @ApiProperty({ example: 'client_credentials', description: 'Must be client_credentials' })
  grant_type: string;

  @ApiProperty({ example: 'acme/alice', description: '<CLIENT_ID>/<USER_ID>' })
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

class TokenErrorBody {
  @ApiProperty({ enum: ['invalid_request', 'invalid_client', 'access_denied'] })
  error: string;

  @ApiProperty({ example: 'client authentication (client secret) failed' })
  error_description: string;

  @ApiProperty({ example: 'invalid_client: client authentication (client secret) failed' })
  Message: string;
}

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
      'Returns a Bearer access token for the user named in scope. No refresh tokens: request a new token after expiry.',
  })
  @ApiConsumes('application/x-www-form-urlencoded')
  @ApiBody({ type: TokenRequestForm })
  @ApiHeader({
    name: 'Authorization',
    required: false,
    description: 'Basic base64(client_id:client_secret)',
  })
  @ApiOkResponse({ type: TokenResponseBody })
  @ApiBadRequestResponse({ type: TokenErrorBody, description: 'The request was refused' })
  issue(
    @Body() body: unknown,
    @Ip() address: string,
    @Headers('authorization') authorization?: string,
  ): Promise<TokenResponse> {
    return this.tokens.issue(body, authorization, Date.now(), address);
  }
}
