/** The public paths of the preference centre under a client (docs/preference-centre.md). */
export const CENTRE_ROUTE = 'PreferenceCentre';
export const UNSUBSCRIBE_ROUTE = 'PreferenceCentre/Unsubscribe';
/**
 * The GPC support resource (Global Privacy Control, "the .well-known/gpc.json resource"):
 * at the origin's root, outside the API prefix (the api's bootstrap excludes it).
 */
export const GPC_WELL_KNOWN_PATH = '.well-known/gpc.json';

/** The absolute path of the page (or the one-click unsubscribe) of a client. */
export function centrePath(
  prefix: string,
  clientId: string,
  kind: 'page' | 'unsubscribe' = 'page',
): string {
  const route = kind === 'page' ? CENTRE_ROUTE : UNSUBSCRIBE_ROUTE;
  return [prefix.replace(/\/+$/, ''), encodeURIComponent(clientId), route].join('/');
}
