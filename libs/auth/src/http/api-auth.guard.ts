import { type CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { clientNotFound, customAuthError, permissionDenied } from '../auth-errors';
import { bearerTokenOf } from '../domain/access-token';
import { grants, type PermissionAccess, type PermissionArea } from '../domain/permissions';
import type { Caller } from '../domain/tenant';
import { CALLER_PROPERTY, type CallerRequest } from './caller-request';
import { AuthSettings } from '../auth-settings';
import { BearerAuthService } from '../services/bearer-auth.service';
import { CustomAuthService } from '../services/custom-auth.service';

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
 * The header names its scheme, so that scheme's check runs alone: the same answers as the
 * chain [Bearer, CUSTOMAUTH3] (Bearer declines any other header, and CUSTOMAUTH3 answers
 * "invalid scheme" for a header of neither). The checks are called directly, not through
 * passport, whose per-request strategy objects, closures and promises cost a GET a few per
 * cent of its CPU; with the caller warm in the AuthCache the guard answers without a
 * promise.
 */
@Injectable()
export class ApiAuthGuard implements CanActivate {
  /** Each operation's required permission (null: none), read once from its metadata. */
  private readonly requiredOf = new WeakMap<object, RequiredPermission | null>();

  constructor(
    private readonly reflector: Reflector,
    private readonly settings: AuthSettings,
    private readonly bearer: BearerAuthService,
    private readonly signed: CustomAuthService,
  ) {}

  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    const request = context.switchToHttp().getRequest<CallerRequest>();
    const authorization = request.headers.authorization;
    if (!authorization?.trim()) {
      throw customAuthError('missing-header', this.settings.authRealm);
    }
    const token = bearerTokenOf(authorization);
    const caller =
      token === null
        ? this.signed.authenticate(authorization, request.params?.clientId)
        : this.bearer.authenticate(token);
    if (caller instanceof Promise) {
      return caller.then((found) => this.admit(context, request, found));
    }
    return this.admit(context, request, caller);
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
