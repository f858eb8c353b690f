import type { ConfirmationTemplate } from '@app/config';

/** What a confirmation message says, before the template is filled in. */
export interface ConfirmationMessageFacts {
  /** The consent's name; for a program's opt-in, the program's. */
  ConsentName: string;
  /** The program's name (an opt-in); for a consent, the consent's name. */
  ProgramName: string;
  ConsentLanguage: string;
  EmailAddress: string;
  Link: string;
  ExpiresAt: string;
}

export interface ConfirmationMessage {
  subject: string;
  text: string;
  html: string;
}

const PLACEHOLDER =
  /\{\{(ConsentName|ConsentLanguage|EmailAddress|Link|ExpiresAt|ProgramName)\}\}/g;

function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** The template filled in (the HTML body with every value escaped). Pure. */
export function fillConfirmationTemplate(
  template: ConfirmationTemplate,
  facts: ConfirmationMessageFacts,
): ConfirmationMessage {
  const fill = (text: string, escape: (value: string) => string) =>
    text.replace(PLACEHOLDER, (_, name: keyof ConfirmationMessageFacts) => escape(facts[name]));
  const plain = (value: string) => value;
  return {
    subject: fill(template.Subject, plain).replace(/[\r\n]+/g, ' '),
    text: fill(template.Text, plain),
    html: fill(template.Html, escapeHtml),
  };
}
