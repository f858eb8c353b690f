import { Module } from '@nestjs/common';
import { tenantScopedFeatures } from '@app/shared';
import { ApiAuthSupportModule } from './auth-settings';
import { ClientRepository } from './repositories/client.repository';
import { OAuthClientRepository } from './repositories/oauth-client.repository';
import { RevokedTokenRepository } from './repositories/revoked-token.repository';
import { UserRepository } from './repositories/user.repository';
import { ClientAccount, ClientAccountSchema } from './schemas/client.schema';
import { OAuthClient, OAuthClientSchema } from './schemas/oauth-client.schema';
import { RevokedToken, RevokedTokenSchema } from './schemas/revoked-token.schema';
import { UserAccount, UserAccountSchema } from './schemas/user.schema';
import { BearerAuthService } from './services/bearer-auth.service';
import { CustomAuthService } from './services/custom-auth.service';
import { TenantAdminService } from './services/tenant-admin.service';
import { TokenService } from './services/token.service';
import { AuthCache } from './services/auth-cache.service';
import { TokenThrottle } from './services/token-throttle.service';

/**
 * The auth module's collections and services, without HTTP (the admin CLI uses this
 * alone). Reads its own settings (AuthSettings); needs the Settings, the database connection and the RedisModule from the
 * importing app.
 */
@Module({
  imports: [
    ApiAuthSupportModule,
    tenantScopedFeatures(
      [ClientAccount, ClientAccountSchema],
      [UserAccount, UserAccountSchema],
      [OAuthClient, OAuthClientSchema],
      [RevokedToken, RevokedTokenSchema],
    ),
  ],
  providers: [
    ClientRepository,
    UserRepository,
    OAuthClientRepository,
    RevokedTokenRepository,
    AuthCache,
    TokenThrottle,
    TokenService,
    BearerAuthService,
    CustomAuthService,
    TenantAdminService,
  ],
  exports: [
    TokenService,
    BearerAuthService,
    CustomAuthService,
    TenantAdminService,
    // For the operator's view of a client's quotas (AuthApiModule).
    ClientRepository,
  ],
})
export class AuthCoreModule {}
