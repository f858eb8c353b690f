import { htmlPageHeaders, Markup, markup } from '@app/shared';

export { escapeHtml, Markup, markup, newNonce } from '@app/shared';

/**
 * The page's headers (htmlPageHeaders): scripts only from this origin (the charting library
 * and the page's script, served by the api), the one style element by nonce.
 */
export function pageHeaders(nonce: string): Record<string, string> {
  return htmlPageHeaders(nonce, "'self'");
}

const ICON_SVG =
  "<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'>" +
  "<rect width='16' height='16' rx='3' fill='#1d4ed8'/>" +
  "<path d='M4 13V9M8 13V4M12 13V7' stroke='#fff' stroke-width='2.5'/></svg>";

/**
 * The pages' icon, inline: without one the browser asks for /favicon.ico, a 404 in its
 * console. A `data:` image, which the CSP's `img-src 'self' data:` allows.
 */
export const FAVICON: Markup = markup`<link rel="icon" href="${`data:image/svg+xml,${encodeURIComponent(ICON_SVG)}`}">`;
