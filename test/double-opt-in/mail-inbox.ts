import { eventually } from '../harness/test-app';

/** A message the e2e harness's mail catcher caught (scripts/mail-catcher.js). */
export interface CaughtMail {
  id: string;
  from: string;
  to: string[];
  subject: string;
  messageId: string | null;
  text: string;
  html: string;
}

/** Every message caught for `address` so far (the catcher is shared by the run's files). */
export async function mailTo(address: string): Promise<CaughtMail[]> {
  const response = await fetch(new URL('messages', process.env.TEST_MAIL_INBOX_URL));
  const all = (await response.json()) as CaughtMail[];
  return all.filter((mail) => mail.to.includes(address));
}

/** The first message for `address`, once caught. */
export function firstMailTo(address: string): Promise<CaughtMail> {
  return eventually(async () => (await mailTo(address))[0]);
}

/** The confirmation link's path (/Confirm/<token>) in a message's text. */
export function linkPathOf(mail: CaughtMail): string {
  const match = /https?:\/\/[^/\s]+(\/Confirm\/[A-Za-z0-9._-]+)/.exec(mail.text);
  if (!match) throw new Error(`no confirmation link in: ${mail.text}`);
  return match[1];
}
