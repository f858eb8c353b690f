import { textKey } from '@app/shared';
import type { PreferenceBody } from './profile-shape';

/*
 * How preferences are told apart within their container: ProgramId + ChannelId + FilterId,
 * compared as the preference rules (preference.rules.ts) read them: decimal ids as numbers
 * ("07" is program 7) and the channel aliases as their channel ("SMS" and "Text" are
 * "Text/SMS", as canonicalChannel in @app/config reads them; preference-key.spec.ts checks
 * that they agree), so one preference written under two spellings stays one preference.
 * Anything else compares as textKey does.
 */

const CHANNEL_ALIASES: Record<string, string> = { text: 'text/sms', sms: 'text/sms' };

/** A program or filter id as a key: the number for a decimal id, else the folded text. */
export function preferenceIdKey(value: unknown): string {
  const text = textKey(value);
  return /^\d{1,10}$/.test(text) ? String(Number(text)) : text;
}

/** A channel as a key: aliases give their channel. */
export function preferenceChannelKey(value: unknown): string {
  const text = textKey(value);
  return CHANNEL_ALIASES[text] ?? text;
}

/** The matching key of a preference within its container. */
export function preferenceKey(preference: PreferenceBody): string {
  return [
    preferenceIdKey(preference.ProgramId),
    preferenceChannelKey(preference.ChannelId),
    preferenceIdKey(preference.FilterId),
  ].join('|');
}
