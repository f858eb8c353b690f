import { randomBytes } from 'node:crypto';

/*
 * Plain HTML from TypeScript for the pages the api serves itself (the preference centre,
 * the reporting page): every value that is not markup goes through `escapeHtml` (text and
 * attribute values alike); `markup` joins trusted fragments. No framework.
 */

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '`': '&#96;',
};

/** Text or an attribute value, escaped. */
export function escapeHtml(value: unknown): string {
  return String(value ?? '').replace(/[&<>"'`]/g, (c) => ESCAPES[c]);
}

/** A fragment of markup built by a view (never from input without escapeHtml). */
export class Markup {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

/** Tagged template (not named `html`, which prettier would reformat): interpolated Markup goes in as is, anything else escaped; arrays joined. */
export function markup(strings: TemplateStringsArray, ...values: unknown[]): Markup {
  let out = strings[0];
  values.forEach((value, index) => {
    out += render(value) + strings[index + 1];
  });
  return new Markup(out);
}

function render(value: unknown): string {
  if (value instanceof Markup) return value.text;
  if (Array.isArray(value)) return value.map(render).join('');
  if (value === undefined || value === null || value === false) return '';
  return escapeHtml(value);
}

/** A fresh nonce for a page's style (and script) element. */
export function newNonce(): string {
  return randomBytes(16).toString('base64');
}

/**
 * The headers of a page whose link is its credential: a Content-Security-Policy allowing
 * only the page's own (nonced) style, scripts from `scriptSrc` (a nonce or `'self'`),
 * forms posting to this origin, no framing; no referrer (the link's signature is in the
 * URL); never cached.
 */
export function htmlPageHeaders(nonce: string, scriptSrc: string): Record<string, string> {
  return {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': [
      "default-src 'none'",
      `style-src 'nonce-${nonce}'`,
      `script-src ${scriptSrc}`,
      "img-src 'self' data:",
      "form-action 'self'",
      "frame-ancestors 'none'",
      "base-uri 'none'",
    ].join('; '),
    'referrer-policy': 'no-referrer',
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'cache-control': 'no-store',
  };
}
