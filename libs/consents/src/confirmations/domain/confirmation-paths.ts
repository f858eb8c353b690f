/** The public confirmation page, under the api's prefix: `/Profiles/v4/Confirm/{token}`. */
export const CONFIRM_ROUTE = 'Confirm/:token';
export const CONFIRM_ROUTE_PREFIX = '/Profiles/v4/Confirm';
