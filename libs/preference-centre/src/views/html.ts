import { htmlPageHeaders, Markup, markup } from '@app/shared';

export { escapeHtml, Markup, markup, newNonce } from '@app/shared';

/** A rendered page: its status, HTML and the headers every page of the centre sends. */
export interface RenderedPage {
  status: number;
  body: string;
  headers: Record<string, string>;
}

/**
 * The headers of every page (htmlPageHeaders): only the page's own (nonced) style and
 * script.
 */
export function pageHeaders(nonce: string): Record<string, string> {
  return htmlPageHeaders(nonce, `'nonce-${nonce}'`);
}

const STYLE = `
:root { color-scheme: light; --ink: #1b1b1f; --muted: #4a4a55; --line: #c8c8d0; --accent: #0b57d0; --focus: #b3261e; --ok: #0a6b2f; }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: #f6f6f8; }
main { max-width: 44rem; margin: 0 auto; padding: 1.5rem 1rem 3rem; background: #fff; min-height: 100vh; }
h1 { font-size: 1.6rem; margin: 0 0 .5rem; }
h2 { font-size: 1.2rem; margin: 2rem 0 .5rem; }
p { margin: .5rem 0; }
.skip { position: absolute; left: -999px; top: 0; background: #fff; padding: .5rem 1rem; }
.skip:focus { left: 1rem; top: 1rem; z-index: 10; }
fieldset { border: 1px solid var(--line); border-radius: 6px; margin: 1rem 0; padding: .75rem 1rem 1rem; }
legend { font-weight: 600; padding: 0 .25rem; }
.hint, .contact { color: var(--muted); font-size: .9rem; }
.choice { display: flex; flex-wrap: wrap; align-items: center; gap: .5rem 1rem; padding: .5rem 0; border-top: 1px solid #eee; }
.choice:first-of-type { border-top: 0; }
.choice label { display: inline-flex; gap: .5rem; align-items: center; cursor: pointer; }
input[type=checkbox] { width: 1.25rem; height: 1.25rem; accent-color: var(--accent); }
select, button { font: inherit; }
select { padding: .25rem; }
button { padding: .6rem 1.2rem; border-radius: 6px; border: 1px solid var(--accent); background: var(--accent); color: #fff; cursor: pointer; }
button.secondary { background: #fff; color: var(--accent); }
a:focus-visible, input:focus-visible, select:focus-visible, button:focus-visible, .skip:focus { outline: 3px solid var(--focus); outline-offset: 2px; }
.notice { border-left: 4px solid var(--ok); background: #eef8f1; padding: .75rem 1rem; margin: 1rem 0; }
.error { border-left: 4px solid var(--focus); background: #fdeeee; padding: .75rem 1rem; margin: 1rem 0; }
.consent-text { margin: .25rem 0 0 1.75rem; color: var(--muted); font-size: .9rem; }
.awaiting { flex-basis: 100%; margin: .25rem 0 0 1.75rem; border-left: 4px solid #8a5a00; background: #fff6e0; padding: .5rem .75rem; font-size: .9rem; }
.actions { display: flex; gap: 1rem; flex-wrap: wrap; margin-top: 1.5rem; }
.dirty { min-height: 1.5rem; color: var(--muted); }
`;

/** The document around a page's content. */
export function layout(options: {
  lang: string;
  title: string;
  nonce: string;
  content: Markup;
  script?: string;
}): string {
  const script = options.script
    ? markup`<script nonce="${options.nonce}">${new Markup(options.script)}</script>`
    : '';
  return markup`<!doctype html>
<html lang="${options.lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<title>${options.title}</title>
<style nonce="${options.nonce}">${new Markup(STYLE)}</style>
</head>
<body>
<a class="skip" href="#content">Skip to content</a>
<main id="content" tabindex="-1">
${options.content}
</main>
${script}
</body>
</html>
`.text;
}
