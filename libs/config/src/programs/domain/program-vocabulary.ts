import { textKey } from '@app/shared';
/*
 * The closed vocabularies of programs and filters. Input is accepted in any letter case
 * and under the aliases older clients send; the canonical value is stored and returned.
 */

export const PROGRAM_TYPES = [
  'Transactional',
  'Marketing',
  'Informational',
  'Consent',
  'Do Not Contact (DNC)',
] as const;
export type ProgramType = (typeof PROGRAM_TYPES)[number];

const PROGRAM_TYPE_ALIASES: Record<string, ProgramType> = {
  dnc: 'Do Not Contact (DNC)',
  'do not contact': 'Do Not Contact (DNC)',
};

/** Filter channels: Text/SMS is also accepted as "Text" or "SMS". */
export const CHANNELS = ['Phone', 'Text/SMS', 'Email', 'Mail', 'Solicit'] as const;
export type Channel = (typeof CHANNELS)[number];

const CHANNEL_ALIASES: Record<string, Channel> = { text: 'Text/SMS', sms: 'Text/SMS' };

/** What ProgramType accepts, for messages and the OpenAPI document. */
export const PROGRAM_TYPE_INPUTS = [...PROGRAM_TYPES, 'DNC', 'Do Not Contact'];
/** What ChannelID accepts, for messages and the OpenAPI document. */
export const CHANNEL_INPUTS = [...CHANNELS, 'Text', 'SMS'];

function lookup<T extends string>(
  canonical: readonly T[],
  aliases: Record<string, T>,
  value: unknown,
): T | undefined {
  if (typeof value !== 'string') return undefined;
  const wanted = textKey(value);
  return canonical.find((entry) => entry.toLowerCase() === wanted) ?? aliases[wanted];
}

/** The canonical program type of an input value, or undefined when it names none. */
export function canonicalProgramType(value: unknown): ProgramType | undefined {
  return lookup(PROGRAM_TYPES, PROGRAM_TYPE_ALIASES, value);
}

/** The canonical channel of an input value (Text and SMS give Text/SMS), or undefined. */
export function canonicalChannel(value: unknown): Channel | undefined {
  return lookup(CHANNELS, CHANNEL_ALIASES, value);
}
