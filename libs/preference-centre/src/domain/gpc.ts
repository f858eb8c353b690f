/*
 * Global Privacy Control on the page (docs/preference-centre.md, "Global Privacy Control"):
 * a browser that sends `Sec-GPC: 1` asks not to have the person's information sold or
 * shared. How a preference records it: @app/preferences (GPC_ATTRIBUTE, GPC_SOURCE).
 */

/** The request header of the signal (GPC specification); its one value is "1". */
export const GPC_HEADER = 'sec-gpc';

/** Whether a request's headers carry the signal (`Sec-GPC: 1`). */
export function hasGpcSignal(headers: Record<string, string | string[] | undefined>): boolean {
  const value = headers[GPC_HEADER];
  const text = Array.isArray(value) ? value[0] : value;
  return typeof text === 'string' && text.trim() === '1';
}
