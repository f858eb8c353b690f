import { type CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import passport from 'passport';
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
 * project's fixed auth stack), though calling the checks directly saved a signed GET about
 * a tenth of its CPU (docs/benchmarks.md, 2026-12-03): the checks themselves answer without
 * a promise when the caller is warm, and passport's per-request objects are the price of one
 * auth framework for every scheme a client may add.
 */
@Injectable()
export class ApiAuthGuard implements CanActivate {
  /** Each operation's required permission (null: none), read once from its metadata. */
  private readonly requiredOf = new WeakMap<object, RequiredPermission | null>();

  constructor(
    private readonly reflector: Reflector,
    private readonly settings: AuthSettings,
  ) {}

  canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const request = http.getRequest<CallerRequest>();
    const authorization = request.headers.authorization;
    if (!authorization?.trim()) {
      throw customAuthError('missing-header', this.settings.authRealm);
    }
    const strategy = bearerTokenOf(authorization) === null ? CUSTOMAUTH3_STRATEGY : BEARER_STRATEGY;
    return this.authenticate(strategy, request, http.getResponse()).then((caller) =>
      this.admit(context, request, caller),
    );
  }

  /**
   * Runs one passport strategy on the request, as `@nestjs/passport`'s `AuthGuard` does
   * (`passport.authenticate` with a callback, no session) without its per-request option
   * merging and extra promises: the caller, or the strategy's ApiError as it is.
   */
  private authenticate(
    strategy: string,
    request: CallerRequest,
    response: unknown,
  ): Promise<Caller> {
    const realm = this.settings.authRealm;
    return new Promise<Caller>((resolve, reject) => {
      const verified = (error: unknown, user: Caller | false | undefined): void => {
        if (error) reject(error);
        // A declining strategy means no usable scheme.
        else if (!user) reject(customAuthError('invalid-scheme', realm));
        else resolve(user);
      };
      passport.authenticate(strategy, AUTHENTICATE_OPTIONS, verified)(request, response, reject);
    });
  }

  /** Keeps the caller on the request if it may run the operation on the path's client. */
  private admit(context: ExecutionContext, request: CallerRequest, caller: Caller): true {
    request[CALLER_PROPERTY] = caller;
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

const AUTHENTICATE_OPTIONS = { session: false };
