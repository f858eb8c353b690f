/** A confirmation message in one locale: subject, plain text and HTML. */
export interface ConfirmationTemplate {
  Locale: string;
  Subject: string;
  Text: string;
  Html: string;
}

/** What a client's double opt-in uses (its stored settings over the defaults). */
export interface ConfirmationSettings {
  /** How long a link stays valid. */
  TimeToLiveHours: number;
  /** The sender (From) of the messages; null: the deployment's CONFIRMATION_FROM. */
  From: string | null;
  /** The client's templates; the default template serves a locale none matches. */
  Templates: ConfirmationTemplate[];
}

export const DEFAULT_CONFIRMATION_TTL_HOURS = 72;

/**
 * The default message (English). Placeholders, replaced when the message is built:
 * `{{ConsentName}}`, `{{ConsentLanguage}}`, `{{EmailAddress}}`, `{{Link}}`, `{{ExpiresAt}}`,
 * `{{ProgramName}}` (HTML-escaped in Html). For a program's opt-in, ConsentName and
 * ProgramName are the program's name and ConsentLanguage its filter's text.
 */
export const DEFAULT_CONFIRMATION_TEMPLATE: ConfirmationTemplate = {
  Locale: 'en',
  Subject: 'Please confirm: {{ConsentName}}',
  Text:
    'Someone (we hope you) asked us to record your consent for {{EmailAddress}}:\n\n' +
    '{{ConsentLanguage}}\n\n' +
    'To confirm, open this link and press the button (valid until {{ExpiresAt}}):\n{{Link}}\n\n' +
    'If this was not you, ignore this message: nothing is recorded without your confirmation.\n',
  Html:
    '<p>Someone (we hope you) asked us to record your consent for <b>{{EmailAddress}}</b>:</p>' +
    '<blockquote>{{ConsentLanguage}}</blockquote>' +
    '<p><a href="{{Link}}">Confirm</a> (valid until {{ExpiresAt}})</p>' +
    '<p>If this was not you, ignore this message: nothing is recorded without your confirmation.</p>',
};

export const DEFAULT_CONFIRMATION_SETTINGS: ConfirmationSettings = {
  TimeToLiveHours: DEFAULT_CONFIRMATION_TTL_HOURS,
  From: null,
  Templates: [],
};

/**
 * The template for `locale`: an exact match (case-insensitive), else one of its language
 * (`fr` for `fr-ca`), else the client's `en`, else the default.
 */
export function templateFor(
  settings: ConfirmationSettings,
  locale: string | undefined,
): ConfirmationTemplate {
  const wanted = (locale ?? '').toLowerCase();
  const byLocale = (code: string) =>
    settings.Templates.find((template) => template.Locale.toLowerCase() === code);
  return (
    (wanted && byLocale(wanted)) ||
    (wanted && byLocale(wanted.split('-')[0])) ||
    byLocale('en') ||
    DEFAULT_CONFIRMATION_TEMPLATE
  );
}
