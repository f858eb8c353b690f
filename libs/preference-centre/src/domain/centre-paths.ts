/** The public paths of the preference centre under a client (docs/preference-centre.md). */
export const CENTRE_ROUTE = 'PreferenceCentre';
export const UNSUBSCRIBE_ROUTE = 'PreferenceCentre/Unsubscribe';

/** The absolute path of the page (or the one-click unsubscribe) of a client. */
export function centrePath(
  prefix: string,
  clientId: string,
  kind: 'page' | 'unsubscribe' = 'page',
): string {
  const route = kind === 'page' ? CENTRE_ROUTE : UNSUBSCRIBE_ROUTE;
  return [prefix.replace(/\/+$/, ''), encodeURIComponent(clientId), route].join('/');
}
