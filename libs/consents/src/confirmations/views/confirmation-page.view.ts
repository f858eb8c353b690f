import { escapeHtml, htmlPageHeaders, markup, newNonce, type Markup } from '@app/shared';

/** A rendered page: status, HTML, headers. */
export interface ConfirmationPage {
  status: number;
  body: string;
  headers: Record<string, string>;
}

/** Why a link shows no button (docs/double-opt-in.md, "The link"). */
export type ConfirmationRefusal = 'invalid' | 'expired' | 'used' | 'cancelled' | 'gone';

const REFUSALS: Record<ConfirmationRefusal, { status: number; title: string; body: string }> = {
  invalid: {
    status: 403,
    title: 'This link is not valid',
    body: 'The link is incomplete or was changed. Open it again from the message, exactly as it was sent.',
  },
  expired: {
    status: 410,
    title: 'This link has expired',
    body: 'Confirmation links are valid for a limited time. Nothing was recorded; ask for a new message.',
  },
  used: {
    status: 410,
    title: 'This link was already used',
    body: 'Your confirmation was recorded when the link was first used. There is nothing more to do.',
  },
  cancelled: {
    status: 410,
    title: 'This request was withdrawn',
    body: 'The request this link confirms was withdrawn or replaced. Nothing was recorded.',
  },
  gone: {
    status: 404,
    title: 'This request no longer exists',
    body: 'Nothing was recorded.',
  },
};

const STYLE = `body{margin:0;font:16px/1.5 system-ui,sans-serif;color:#1b1b1f;background:#f6f6f8}
main{max-width:36rem;margin:0 auto;padding:2rem 1rem;background:#fff;min-height:100vh}
h1{font-size:1.5rem}blockquote{border-left:4px solid #c8c8d0;margin:1rem 0;padding:.5rem 1rem;color:#4a4a55}
button{font:inherit;padding:.6rem 1.2rem;border-radius:6px;border:1px solid #0b57d0;background:#0b57d0;color:#fff;cursor:pointer}
button:focus-visible{outline:3px solid #b3261e;outline-offset:2px}`;

function page(status: number, title: string, content: Markup): ConfirmationPage {
  const nonce = newNonce();
  return {
    status,
    headers: htmlPageHeaders(nonce, "'none'"),
    body: `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${escapeHtml(title)}</title>
<style nonce="${nonce}">${STYLE}</style></head>
<body><main>${content.text}</main></body></html>`,
  };
}

/** What the person confirms: a consent, or a subscription (a program's opt-in). */
export type ConfirmedSubject = 'consent' | 'subscription';

/** The GET: what is asked and one button; nothing is recorded by showing it. */
export function renderConfirmationQuestion(facts: {
  consentName: string;
  consentLanguage: string;
  emailAddress: string;
  action: string;
  subject: ConfirmedSubject;
}): ConfirmationPage {
  const title = `Confirm your ${facts.subject}`;
  return page(
    200,
    title,
    markup`<h1>${title}</h1>
<p>For <b>${facts.emailAddress}</b>: ${facts.consentName}</p>
<blockquote>${facts.consentLanguage}</blockquote>
<form method="post" action="${facts.action}">
<button type="submit">Confirm</button>
</form>
<p>If you did not ask for this, close this page: nothing is recorded without the button.</p>`,
  );
}

/** The POST's answer once the grant (the opt-in) is queued. */
export function renderConfirmed(subject: ConfirmedSubject): ConfirmationPage {
  return page(
    200,
    'Thank you: confirmed',
    markup`<h1>Thank you: confirmed</h1>
<p role="status">Your ${subject} is recorded.</p>`,
  );
}

export function renderConfirmationRefused(reason: ConfirmationRefusal): ConfirmationPage {
  const texts = REFUSALS[reason];
  return page(texts.status, texts.title, markup`<h1>${texts.title}</h1><p>${texts.body}</p>`);
}
