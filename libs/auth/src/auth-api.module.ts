import { Global, Module } from '@nestjs/common';
import { AuthCoreModule } from './auth-core.module';
import { ApiAuthGuard } from './http/api-auth.guard';
import { BearerJwtStrategy } from './http/bearer-jwt.strategy';
import { CustomAuth3Strategy } from './http/customauth3.strategy';
import { TokenController } from './http/token.controller';
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

/** The auth module of the api app: the token endpoint plus the global guard support. */
@Module({
  imports: [AuthCoreModule, AuthGuardModule],
  controllers: [TokenController],
  providers: [ScopeConsentTypeRenamedHandler],
})
export class AuthApiModule {}
