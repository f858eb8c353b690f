/**
 * The public confirmation page, outside the api's prefix (as the token endpoint is):
 * `/Confirm/{token}`. Under `/Profiles/v4` it would be ambiguous with every tenant route
 * `/Profiles/v4/{clientId}/...` (a client id may be "Confirm"; Redocly's no-ambiguous-paths).
 */
export const CONFIRM_ROUTE = 'Confirm/:token';
export const CONFIRM_ROUTE_PREFIX = '/Confirm';
