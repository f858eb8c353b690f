import { type CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import { clientNotFound, customAuthError, permissionDenied } from '../auth-errors';
import { bearerTokenOf } from '../domain/access-token';
import { grants, type PermissionAccess, type PermissionArea } from '../domain/permissions';
import type { Caller } from '../domain/tenant';
import { BEARER_STRATEGY } from './bearer-jwt.strategy';
import { CALLER_PROPERTY, type CallerRequest } from './caller-request';
import { CUSTOMAUTH3_STRATEGY } from './customauth3.strategy';
import { AuthSettings } from '../auth-settings';

/** Metadata key of the permission an operation needs (set by `@ApiAuth`). */
export const REQUIRED_PERMISSION = 'auth:required-permission';

export interface RequiredPermission {
  area: PermissionArea;
  access: PermissionAccess;
}

/**
 * Authenticates (a Bearer token, else a CUSTOMAUTH3 signature), then scopes to the tenant:
 * the `{clientId}` path segment must be the caller's own client, else 404 as for an unknown
 * client (tenants never learn of each other). Then checks the permission of `@ApiAuth`.
 *
 * The header names its scheme, so passport runs that scheme's strategy alone: the same
 * answers as the chain [Bearer, CUSTOMAUTH3] (Bearer declines any other header, and
 * CUSTOMAUTH3 answers "invalid scheme" for a header of neither), without trying Bearer
 * first on every signed request.
 *
 * Both schemes stay passport strategies (`@nestjs/passport` with `passport-custom`, the
 * project's fixed auth stack), though calling the checks directly saved a GET 6-9 % of its
 * CPU (docs/benchmarks.md, "passport kept"): passport's per-request middleware, strategy
 * object and promises are the price of one auth framework for every scheme.
 */
@Injectable()
export class ApiAuthGuard implements CanActivate {
  /** Each operation's required permission (null: none), read once from its metadata. */
  private readonly requiredOf = new WeakMap<object, RequiredPermission | null>();
  private readonly bearer: CanActivate;
  private readonly signed: CanActivate;

  constructor(
    private readonly reflector: Reflector,
    private readonly settings: AuthSettings,
  ) {
    this.bearer = passportGuardOf(BEARER_STRATEGY, settings.authRealm);
    this.signed = passportGuardOf(CUSTOMAUTH3_STRATEGY, settings.authRealm);
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<CallerRequest>();
    const authorization = request.headers.authorization;
    if (!authorization?.trim()) {
      throw customAuthError('missing-header', this.settings.authRealm);
    }
    const scheme = bearerTokenOf(authorization) === null ? this.signed : this.bearer;
    await scheme.canActivate(context);
    const caller = request.caller as Caller;

    const pathClientId = request.params?.clientId;
    if (pathClientId !== undefined && pathClientId !== caller.clientId) {
      throw clientNotFound(pathClientId);
    }

    const required = this.requiredPermission(context);
    if (required && !grants(caller.group, required.area, required.access)) {
      throw permissionDenied(caller.group.name, required.area, required.access);
    }
    return true;
  }

  private requiredPermission(context: ExecutionContext): RequiredPermission | null {
    const handler = context.getHandler();
    let required = this.requiredOf.get(handler);
    if (required === undefined) {
      required =
        this.reflector.getAllAndOverride<RequiredPermission | undefined>(REQUIRED_PERMISSION, [
          handler,
          context.getClass(),
        ]) ?? null;
      this.requiredOf.set(handler, required);
    }
    return required;
  }
}

/** The passport guard of one strategy: the caller on `request.caller`, our errors as they are. */
function passportGuardOf(strategy: string, realm: string): CanActivate {
  class PassportSchemeGuard extends AuthGuard(strategy) {
    override getAuthenticateOptions(): { session: boolean; property: string } {
      return AUTHENTICATE_OPTIONS;
    }

    /** Our ApiErrors pass unchanged; a declining strategy means no usable scheme. */
    override handleRequest<TUser = Caller>(error: unknown, user: unknown): TUser {
      if (error) throw error;
      if (!user) throw customAuthError('invalid-scheme', realm);
      return user as TUser;
    }
  }
  return new PassportSchemeGuard();
}

const AUTHENTICATE_OPTIONS = { session: false, property: CALLER_PROPERTY };
