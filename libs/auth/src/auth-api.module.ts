import { Global, Module } from '@nestjs/common';
import { AuthCoreModule } from './auth-core.module';
import { ApiAuthGuard } from './http/api-auth.guard';
import { ClientQuotasController } from './http/client-quotas.controller';
import { TokenController } from './http/token.controller';
import { GetClientQuotasHandler } from './queries/get-client-quotas/get-client-quotas.handler';
import { ScopeConsentTypeRenamedHandler } from './services/consent-type-renamed.handler';

/**
 * Global: provides `ApiAuthGuard` and what it needs (the Bearer and CUSTOMAUTH3 checks), so
 * a controller in any module can use `@ApiAuth(...)` without importing auth internals.
 */
@Global()
@Module({
  imports: [AuthCoreModule],
  providers: [ApiAuthGuard],
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
