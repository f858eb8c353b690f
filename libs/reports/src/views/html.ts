import { htmlPageHeaders } from '@app/shared';

export { escapeHtml, Markup, markup, newNonce } from '@app/shared';

/**
 * The page's headers (htmlPageHeaders): scripts only from this origin (the charting library
 * and the page's script, served by the api), the one style element by nonce.
 */
export function pageHeaders(nonce: string): Record<string, string> {
  return htmlPageHeaders(nonce, "'self'");
}
