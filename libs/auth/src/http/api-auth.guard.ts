import { ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import { clientNotFound, customAuthError, permissionDenied } from '../auth-errors';
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
 * Authenticates (Bearer first, then CUSTOMAUTH3), then scopes to the tenant: the
 * `{clientId}` path segment must be the caller's own client, else 404 as for an unknown
 * client (tenants never learn of each other). Then checks the permission of `@ApiAuth`.
 */
@Injectable()
export class ApiAuthGuard extends AuthGuard([BEARER_STRATEGY, CUSTOMAUTH3_STRATEGY]) {
  /** Each operation's required permission (null: none), read once from its metadata. */
  private readonly requiredOf = new WeakMap<object, RequiredPermission | null>();

  constructor(
    private readonly reflector: Reflector,
    private readonly settings: AuthSettings,
  ) {
    super();
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<CallerRequest>();
    if (!request.headers.authorization?.trim()) {
      throw customAuthError('missing-header', this.settings.authRealm);
    }
    await super.canActivate(context);
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

  override getAuthenticateOptions(): { session: boolean; property: string } {
    return { session: false, property: CALLER_PROPERTY };
  }

  /** Our ApiErrors pass unchanged; both strategies declining means no usable scheme. */
  override handleRequest<TUser = Caller>(error: unknown, user: unknown): TUser {
    if (error) throw error;
    if (!user) throw customAuthError('invalid-scheme', this.settings.authRealm);
    return user as TUser;
  }
}
