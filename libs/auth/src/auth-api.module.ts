import { Global, Module } from '@nestjs/common';
import { AuthCoreModule } from './auth-core.module';
import { ApiAuthGuard } from './http/api-auth.guard';
import { BearerJwtStrategy } from './http/bearer-jwt.strategy';
import { ClientQuotasController } from './http/client-quotas.controller';
import { CustomAuth3Strategy } from './http/customauth3.strategy';
import { TokenController } from './http/token.controller';
import { GetClientQuotasHandler } from './queries/get-client-quotas/get-client-quotas.handler';
import { ScopeConsentTypeRenamedHandler } from './services/consent-type-renamed.handler';

/**
 * Global: registers the two passport strategies once and provides what `ApiAuthGuard`
 * needs, so a controller in any module can use `@ApiAuth(...)` without importing auth
 * internals.
 */
@Global()
@Module({
  imports: [AuthCoreModule],
  providers: [BearerJwtStrategy, CustomAuth3Strategy, ApiAuthGuard],
  exports: [ApiAuthGuard, AuthCoreModule],
})
export class AuthGuardModule {}

/**
 * The auth module of the api app: the token endpoint, the operator's view of a client's
 * quotas, plus the global guard support.
 */
@Module({
  imports: [AuthCoreModule, AuthGuardModule],
  controllers: [TokenController, ClientQuotasController],
  providers: [ScopeConsentTypeRenamedHandler, GetClientQuotasHandler],
})
export class AuthApiModule {}
