import type {
  AwaitingConfirmation,
  CentreChoice,
  CentreConsent,
  CentrePage,
  CentreProgram,
} from '../domain/centre-page';
import { type CentreForm, FIELD } from '../domain/centre-changes';
import { layout, type Markup, markup, newNonce, pageHeaders, type RenderedPage } from './html';

/*
 * The preference centre's pages (docs/preference-centre.md, "Accessibility"): one form
 * that works without JavaScript (native checkboxes and selects, a submit button), a
 * fieldset and legend per program, a label for every input, a skip link, visible focus,
 * `lang` from the profile's locale. The script only announces unsaved changes.
 */

/** What the page says after a redirect (PRG): saved, or received and not applied yet. */
export type Notice = 'saved' | 'awaiting-confirmation' | 'pending' | 'unsubscribed' | 'unchanged';

/** The notices' words ('awaiting-confirmation' names what waits: see noticeText). */
const NOTICES: Record<Exclude<Notice, 'awaiting-confirmation'>, string> = {
  saved: 'Your choices have been saved.',
  pending: 'Your choices have been received and will show here in a moment.',
  unsubscribed: 'You have been unsubscribed from everything listed on this page.',
  unchanged: 'Nothing was changed: your choices were already saved.',
};

const CHANNEL_NAMES: Record<string, string> = {
  Email: 'Email',
  Phone: 'Phone calls',
  'Text/SMS': 'Text messages',
  Mail: 'Post',
  Solicit: 'In the app and on the web',
};

const SCRIPT = `
(function () {
  var form = document.getElementById('choices');
  var status = document.getElementById('dirty');
  if (!form || !status) return;
  var changed = false;
  form.addEventListener('change', function () {
    if (changed) return;
    changed = true;
    status.textContent = 'You have unsaved changes.';
  });
  form.addEventListener('submit', function () { changed = false; });
})();
`;

function frequencySelect(choice: CentreChoice): Markup | string {
  if (!choice.frequencies.length) return '';
  const id = `freq-${choice.id}`;
  const selected = choice.frequencyId ?? choice.frequencies[0].id;
  const options = choice.frequencies.map(
    (f) =>
      markup`<option value="${f.id}"${f.id === selected ? markup` selected` : ''}>${f.label}</option>`,
  );
  return markup`<label for="${id}">How often</label> <select id="${id}" name="${FIELD.frequency(choice.id)}">${options}</select>`;
}

function requiredConsents(choice: CentreChoice): Markup | string {
  if (!choice.requiredConsents.length) return '';
  const items = choice.requiredConsents.map(
    (c, i) =>
      markup`${i ? '; ' : ''}${c.label}${c.version ? markup` (version ${c.version})` : ''}${c.text ? markup`: “${c.text}”` : ''}`,
  );
  return markup`<p class="hint" id="req-${choice.id}">Subscribing records your agreement to: ${items}</p>`;
}

/**
 * What a page view with a Global Privacy Control signal did: the opt-out applied now
 * (`saved`), queued and not applied yet (`pending`), applied by an earlier view
 * (`unchanged`), or refused by the write's checks (`refused`).
 */
export type GpcOutcome = 'saved' | 'pending' | 'unchanged' | 'refused';

const GPC_OUTCOMES: Record<GpcOutcome, string> = {
  saved: 'We have opted you out of',
  pending: 'We are opting you out of (this will show here in a moment)',
  unchanged: 'You are opted out of',
  refused: 'We could not record your opt-out of',
};

function saleOrShareLabels(page: CentrePage): string[] {
  return page.programs
    .filter((program) => program.choices.some((choice) => choice.saleOrShare))
    .map((program) => program.label);
}

/** The notice that the signal was received, what it opted out of, how to opt back in. */
function gpcNotice(page: CentrePage, outcome: GpcOutcome): Markup {
  const labels = saleOrShareLabels(page);
  const list = labels.map((label, i) => markup`${i ? ', ' : ''}<strong>${label}</strong>`);
  const what = labels.length
    ? markup`<p>${GPC_OUTCOMES[outcome]}: ${list}.</p>
<p>To receive one of them again, tick it and save: we will ask you to confirm first.</p>`
    : markup`<p>Nothing listed on this page sells or shares your personal information.</p>`;
  return markup`<div class="notice gpc" id="gpc" role="status">
<p><strong>We received your Global Privacy Control signal.</strong> Your browser asks us not to sell or share your personal information, and we treat it as your request to opt out.</p>
${what}
</div>
`;
}

function choiceRow(program: CentreProgram, choice: CentreChoice, gpc: boolean): Markup {
  const checkbox = `opt-${choice.id}`;
  const channel = CHANNEL_NAMES[choice.channel] ?? choice.channel;
  const where = choice.contact.label ? `${channel}: ${choice.contact.label}` : channel;
  const marked = gpc && choice.saleOrShare;
  const describedBy = [
    choice.description ? `desc-${choice.id}` : '',
    choice.requiredConsents.length ? `req-${choice.id}` : '',
    marked ? `gpc-${choice.id}` : '',
    choice.awaitingConfirmation ? `${checkbox}-awaiting` : '',
  ]
    .filter(Boolean)
    .join(' ');
  const checked = choice.optedIn ? markup` checked` : '';
  const described = describedBy ? markup` aria-describedby="${describedBy}"` : '';
  const description = choice.description
    ? markup`<p class="hint" id="desc-${choice.id}">${choice.description}</p>`
    : '';
  return markup`<div class="choice">
<input type="hidden" name="${FIELD.shown}" value="${choice.id}">
<input type="checkbox" id="${checkbox}" name="${FIELD.optIn(choice.id)}" value="1"${checked}${described}>
<label for="${checkbox}">${choice.label} <span class="contact">(${where})</span></label>
${frequencySelect(choice)}
${description}
${requiredConsents(choice)}
${marked ? markup`<p class="hint" id="gpc-${choice.id}">Sells or shares your personal information: your Global Privacy Control signal opts you out of it.</p>` : ''}
${awaitingLine(choice.awaitingConfirmation, checkbox, markup`your subscription to <strong>${program.label}</strong>`)}
</div>
`;
}

/**
 * The notice of a save: one that granted a consent or asked for an opt-in held for
 * confirmation names where each link went (the page as it is now: once confirmed, the plain
 * "saved").
 */
function noticeText(page: CentrePage, notice: Notice): Markup | string {
  if (notice !== 'awaiting-confirmation') return NOTICES[notice];
  const consents = page.consents.filter((consent) => consent.awaitingConfirmation);
  const choices = page.programs.flatMap((program) =>
    program.choices
      .filter((choice) => choice.awaitingConfirmation)
      .map((choice) => ({ label: `${program.label}: ${choice.label}`, held: choice })),
  );
  const waiting = [
    ...consents.map((consent) => ({ label: consent.label, held: consent })),
    ...choices,
  ];
  if (!waiting.length) return NOTICES.saved;
  const items = waiting.map(
    ({ label, held }, i) =>
      markup`${i ? '; ' : ''}<strong>${label}</strong> (link sent to ${held.awaitingConfirmation!.address})`,
  );
  const counts = !choices.length
    ? 'A consent counts'
    : !consents.length
      ? 'A subscription counts'
      : 'Each counts';
  return markup`Your choices have been saved. Awaiting your confirmation: ${items}. ${counts} once you confirm it from the message we sent.`;
}

/**
 * The line of a grant or an opt-in waiting for the person's confirmation (double opt-in),
 * `${id}-awaiting`; `what` names what counts once confirmed.
 */
function awaitingLine(
  awaiting: AwaitingConfirmation | undefined,
  id: string,
  what: Markup | string,
): Markup | string {
  if (!awaiting) return '';
  return markup`<p class="awaiting" id="${id}-awaiting"><strong>Awaiting your confirmation.</strong> We sent a confirmation link to ${awaiting.address}; ${what} counts once you confirm.</p>`;
}

function consentRow(consent: CentreConsent): Markup {
  const id = `consent-${consent.id}`;
  const checked = consent.granted ? markup` checked` : '';
  const describedBy = consent.awaitingConfirmation ? `${id}-text ${id}-awaiting` : `${id}-text`;
  const where = consent.contact.label
    ? markup` <span class="contact">(${consent.contact.label})</span>`
    : '';
  const version = consent.version
    ? markup` <span class="hint">(version ${consent.version})</span>`
    : '';
  return markup`<div class="choice">
<input type="hidden" name="${FIELD.consentShown}" value="${consent.id}">
<input type="checkbox" id="${id}" name="${FIELD.consent(consent.id)}" value="1"${checked} aria-describedby="${describedBy}">
<label for="${id}">${consent.label}${where}</label>
<p class="consent-text" id="${id}-text">${consent.text ?? ''}${version}</p>
${awaitingLine(consent.awaitingConfirmation, id, 'the consent')}
</div>
`;
}

/** The preference centre for a profile. `action` is the signed URL the form posts to. */
export function renderCentrePage(
  page: CentrePage,
  action: string,
  options: { notice?: Notice; errors?: string[]; status?: number; gpc?: GpcOutcome } = {},
): RenderedPage {
  const nonce = newNonce();
  const greeting = page.greetingName ? markup`Hello ${page.greetingName}. ` : '';
  const nothing = !page.programs.length && !page.consents.length;
  const notice = options.notice
    ? markup`<div class="notice" role="status">${noticeText(page, options.notice)}</div>`
    : '';
  const errors = options.errors?.length
    ? markup`<div class="error" role="alert"><p>Your choices could not be saved:</p><ul>${options.errors.map((e) => markup`<li>${e}</li>`)}</ul></div>`
    : '';
  const programs = page.programs.map(
    (program) => markup`<fieldset>
<legend>${program.label}</legend>
${program.description ? markup`<p class="hint">${program.description}</p>` : ''}
${program.choices.map((choice) => choiceRow(program, choice, options.gpc !== undefined))}</fieldset>
`,
  );
  const consents = page.consents.length
    ? markup`<fieldset>
<legend>Your consents</legend>
<p class="hint">Untick a consent to withdraw it.</p>
${page.consents.map(consentRow)}</fieldset>
`
    : '';
  const unsubscribe = page.programs.length
    ? markup`<form id="unsubscribe" method="post" action="${action}">
<input type="hidden" name="${FIELD.action}" value="unsubscribe-all">
<h2>Unsubscribe from everything</h2>
<p>This opts you out of every program listed above, on every channel.</p>
<button type="submit" class="secondary">Unsubscribe from everything</button>
</form>`
    : '';
  const content = markup`<h1>Your communication preferences</h1>
<p>${greeting}Choose what we may send you and how. Changes take effect when you select <strong>Save my choices</strong>.</p>
${notice}
${options.gpc && page.saleOrShareMarked ? gpcNotice(page, options.gpc) : ''}
${errors}
${nothing ? markup`<p>There is nothing to choose here at the moment.</p>` : ''}
<form id="choices" method="post" action="${action}">
<input type="hidden" name="${FIELD.action}" value="save">
${programs}${consents}<p id="dirty" class="dirty" role="status" aria-live="polite"></p>
<div class="actions"><button type="submit">Save my choices</button></div>
</form>
${unsubscribe}`;
  return {
    status: options.status ?? 200,
    headers: pageHeaders(nonce),
    body: layout({
      lang: page.lang,
      title: 'Your communication preferences',
      nonce,
      content,
      script: SCRIPT,
    }),
  };
}

/**
 * The confirmation asked before an opt-in of sale or sharing while the browser sends a
 * Global Privacy Control signal: the submitted form again, as hidden fields, with
 * `gpcConfirm=1` (opt in anyway) or `gpcConfirm=0` (save the rest without them), and a link
 * back to the page that changes nothing.
 */
export function renderGpcConfirmation(
  page: CentrePage,
  action: string,
  back: string,
  form: CentreForm,
  choices: CentreChoice[],
): RenderedPage {
  const nonce = newNonce();
  const hidden = Object.entries(form)
    .filter(([name]) => name !== FIELD.gpcConfirm && name !== FIELD.action)
    .flatMap(([name, value]) =>
      (Array.isArray(value) ? value : [value ?? '']).map((v) => [name, v]),
    )
    .map(
      ([name, value]) => markup`<input type="hidden" name="${name}" value="${value}">
`,
    );
  const items = choices.map((choice) => {
    const program = page.programs.find((p) => p.programId === choice.programId);
    const channel = CHANNEL_NAMES[choice.channel] ?? choice.channel;
    const where = choice.contact.label ? `${channel}: ${choice.contact.label}` : channel;
    return markup`<li>${program?.label ?? choice.label}: ${choice.label} <span class="contact">(${where})</span></li>`;
  });
  const content = markup`<h1>Confirm: receive what sells or shares your information?</h1>
<div class="notice gpc" role="status"><p><strong>Your browser is sending a Global Privacy Control signal</strong>, which asks us not to sell or share your personal information.</p></div>
<p>You chose to receive:</p>
<ul id="gpc-choices">${items}</ul>
<p>These involve selling or sharing your personal information. Do you want to receive them anyway? We will record that you confirmed it while your browser sent the signal.</p>
<form id="gpc-confirm" method="post" action="${action}">
<input type="hidden" name="${FIELD.action}" value="save">
${hidden}<div class="actions">
<button type="submit" name="${FIELD.gpcConfirm}" value="1">Yes, opt me in</button>
<button type="submit" name="${FIELD.gpcConfirm}" value="0" class="secondary">No, save my other choices only</button>
</div>
</form>
<p><a href="${back}">Go back without saving</a></p>`;
  return {
    status: 200,
    headers: pageHeaders(nonce),
    body: layout({
      lang: page.lang,
      title: 'Confirm your choice',
      nonce,
      content,
    }),
  };
}

const REFUSALS = {
  invalid: {
    status: 403,
    title: 'This link is not valid',
    body: 'The link may have been copied incompletely or changed. Please use the link from your most recent message, or ask us for a new one.',
  },
  expired: {
    status: 410,
    title: 'This link has expired',
    body: 'For your security, links to your preferences stop working after a while. Please use the link from a more recent message, or ask us for a new one.',
  },
  gone: {
    status: 410,
    title: 'These preferences are no longer available',
    body: 'We could not find preferences for this link. If you think this is a mistake, please contact us.',
  },
};

/** The page of a refused link: what happened, no profile data. */
export function renderRefusedLink(reason: keyof typeof REFUSALS): RenderedPage {
  const nonce = newNonce();
  const texts = REFUSALS[reason];
  return {
    status: texts.status,
    headers: pageHeaders(nonce),
    body: layout({
      lang: 'en-US',
      title: texts.title,
      nonce,
      content: markup`<h1>${texts.title}</h1>
<p>${texts.body}</p>`,
    }),
  };
}

/** The answer of a one-click unsubscribe (RFC 8058) and of its confirmation form. */
export function renderUnsubscribed(
  lang: string,
  outcome: { done: true; pending: boolean } | { done: false; action: string },
): RenderedPage {
  const nonce = newNonce();
  const content = outcome.done
    ? markup`<h1>You are unsubscribed</h1>
<p role="status">${outcome.pending ? 'Your request has been received and will take effect in a moment.' : 'You will no longer receive these messages.'}</p>`
    : markup`<h1>Unsubscribe</h1>
<p>Select the button to stop receiving these messages.</p>
<form method="post" action="${outcome.action}">
<input type="hidden" name="List-Unsubscribe" value="One-Click">
<button type="submit">Unsubscribe</button>
</form>`;
  return {
    status: 200,
    headers: pageHeaders(nonce),
    body: layout({
      lang,
      title: outcome.done ? 'You are unsubscribed' : 'Unsubscribe',
      nonce,
      content,
    }),
  };
}
