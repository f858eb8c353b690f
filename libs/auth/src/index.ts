// Public surface of @app/auth; other modules import nothing deeper.
export { AuthApiModule, AuthGuardModule } from './auth-api.module';
export { AuthCoreModule } from './auth-core.module';
export { AUTH_SETTINGS, AuthSettings, ApiAuthSupportModule } from './auth-settings';
export { ApiAuth, ApiClientIdParam } from './http/api-auth.decorator';
export { TenantController, type TenantControllerDocs } from './http/tenant-controller.decorator';
export { ApiAuthGuard } from './http/api-auth.guard';
export { CurrentCaller } from './http/current-caller.decorator';
export type { Caller } from './domain/tenant';
export {
  ADMINISTRATORS_GROUP,
  grants,
  parsePermissionList,
  PERMISSION_AREAS,
  type DataScope,
  type Permission,
  type PermissionAccess,
  type PermissionArea,
  type UserGroup,
} from './domain/permissions';
export {
  TenantAdminService,
  CLIENT_SETTING_LIMITS,
  type ClientOverview,
  type ClientSettings,
  type QuotaSettings,
  type CreatedClient,
  type OAuthCredentials,
} from './services/tenant-admin.service';
export { TokenService, type TokenResponse } from './services/token.service';
export type { CallerRequest } from './http/caller-request';
