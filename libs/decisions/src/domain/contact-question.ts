import { textKey } from '@app/shared';

/*
 * A contact question ("may we contact this person, here, for this, now?") as sent (the
 * GET's query parameters or one entry of the batch body, same field names) and as checked:
 * every problem is a message naming the field and the value (400, nothing answered).
 */

/** The channels a question may name: the filters' channels (aliases Text and SMS). */
export type DecisionChannel = 'Email' | 'Phone' | 'Text/SMS' | 'Mail' | 'Solicit';

/** One question as sent (query parameters arrive as text, batch entries as JSON). */
export interface RawQuestion {
  ProfileId?: unknown;
  AlternateIdType?: unknown;
  AlternateId?: unknown;
  EmailAddress?: unknown;
  PhoneNumber?: unknown;
  ChannelId?: unknown;
  ProgramId?: unknown;
  FilterId?: unknown;
  ConsentType?: unknown;
}

export const QUESTION_FIELDS: (keyof RawQuestion)[] = [
  'ProfileId',
  'AlternateIdType',
  'AlternateId',
  'EmailAddress',
  'PhoneNumber',
  'ChannelId',
  'ProgramId',
  'FilterId',
  'ConsentType',
];

/** Who the question is about. */
export type QuestionTarget =
  | { kind: 'profile'; profileId: number }
  | { kind: 'alternateId'; pair: { AlternateIdType: string; AlternateId: string } }
  | { kind: 'value' };

/** A checked question. */
export interface ContactQuestion {
  target: QuestionTarget;
  /**
   * The contact element named by value: the whole target of a bare question, or which of
   * a profile's emails (phones) is meant; absent: the profile's default element.
   */
  value?: { list: 'Emails' | 'PhoneNumbers'; text: string; key: string };
  channel: DecisionChannel;
  programId: number;
  filterId?: number;
  /** The consent type's current name. */
  consentType?: string;
}

/** What the question checks need of the client's configuration (ClientVocabulary meets it). */
export interface DecisionVocabulary {
  program(programId: number): { IsActive: boolean; ProgramType: string } | undefined;
  filter(
    filterId: number,
  ): { ProgramId: number; FilterId: number; ChannelId: string; IsActive: boolean } | undefined;
  channel(value: string): string | undefined;
  consentType(name: string): { TypeName: string; IsActive: boolean } | undefined;
}

export const DNC_PROGRAM_TYPE = 'Do Not Contact (DNC)';
const INT32_MAX = 2147483647;

/** The key an email address matches under (profiles, search keys, lists): trimmed, lower-cased. */
export function emailKey(value: string): string | null {
  const email = value.trim().toLowerCase();
  return /^[^\s@]+@[^\s@]+$/.test(email) && email.length <= 254 ? email : null;
}

/** The key a phone number matches under: its digits (1 to 15). */
export function phoneKey(value: string): string | null {
  const digits = value.replace(/\D/g, '');
  return /^\d{1,15}$/.test(digits) && /^[\d\s()+.\-/]+$/.test(value.trim()) ? digits : null;
}

/**
 * Checks one question. `name(field)` is how a message names a field: `Query parameter
 * programId` for the GET, `Questions[3].ProgramId` for the batch.
 */
export function checkQuestion(
  raw: RawQuestion,
  name: (field: keyof RawQuestion) => string,
  vocabulary: DecisionVocabulary,
  /** 'json': a batch entry, typed as documented (ProfileId a number, the rest strings). */
  source: 'query' | 'json' = 'json',
): { question: ContactQuestion } | { problems: string[] } {
  const problems: string[] = [];
  const at = (field: keyof RawQuestion) =>
    `${name(field)} (value ${JSON.stringify(raw[field] ?? null)})`;
  const given = (field: keyof RawQuestion) =>
    raw[field] !== undefined && raw[field] !== null && raw[field] !== '';
  const text = (field: keyof RawQuestion): string | undefined => {
    if (!given(field)) return undefined;
    const value = raw[field];
    if (typeof value === 'string' && value.trim()) return value;
    problems.push(`${at(field)} must be a non-empty string`);
    return undefined;
  };

  // Who: a profile by id or alternate id, or a bare email address or phone number.
  let target: QuestionTarget | undefined;
  if (given('ProfileId')) {
    const value = raw.ProfileId;
    const number =
      source === 'query' && typeof value === 'string' && /^\d+$/.test(value)
        ? Number(value)
        : value;
    if (typeof number !== 'number' || !Number.isInteger(number) || number < 1 || number > INT32_MAX)
      problems.push(`${at('ProfileId')} must be an integer from 1 to ${INT32_MAX}`);
    else target = { kind: 'profile', profileId: number };
  }
  const type = text('AlternateIdType');
  const id = text('AlternateId');
  if (type !== undefined || id !== undefined || given('AlternateIdType') || given('AlternateId')) {
    if (target) {
      problems.push(
        `${name('AlternateId')} cannot be given with ${name('ProfileId')}: name the profile once`,
      );
    } else if (type === undefined || id === undefined) {
      const missing = type === undefined ? 'AlternateIdType' : 'AlternateId';
      if (given(missing) === false)
        problems.push(
          `${name(missing)} is required with ${name(missing === 'AlternateId' ? 'AlternateIdType' : 'AlternateId')} (value missing)`,
        );
    } else target = { kind: 'alternateId', pair: { AlternateIdType: type, AlternateId: id } };
  }

  let value: ContactQuestion['value'];
  const email = text('EmailAddress');
  const phone = text('PhoneNumber');
  if (email !== undefined && phone !== undefined) {
    problems.push(
      `${name('PhoneNumber')} cannot be given with ${name('EmailAddress')}: ask one question per contact element`,
    );
  } else if (email !== undefined) {
    const key = emailKey(email);
    if (key === null) problems.push(`${at('EmailAddress')} is not an email address`);
    else value = { list: 'Emails', text: email, key };
  } else if (phone !== undefined) {
    const key = phoneKey(phone);
    if (key === null) problems.push(`${at('PhoneNumber')} is not a phone number (1 to 15 digits)`);
    else value = { list: 'PhoneNumbers', text: phone, key };
  }
  const anyTarget =
    given('ProfileId') ||
    given('AlternateIdType') ||
    given('AlternateId') ||
    given('EmailAddress') ||
    given('PhoneNumber');
  if (!anyTarget) {
    problems.push(
      `${name('ProfileId')}, ${name('AlternateIdType')} + ${name('AlternateId')}, ${name('EmailAddress')} or ${name('PhoneNumber')} is required (value missing)`,
    );
  }
  if (!target && value) target = { kind: 'value' };

  // Here: the channel.
  let channel: DecisionChannel | undefined;
  const channelText = text('ChannelId');
  if (!given('ChannelId')) problems.push(`${name('ChannelId')} is required (value missing)`);
  else if (channelText !== undefined) {
    channel = vocabulary.channel(channelText) as DecisionChannel | undefined;
    if (!channel)
      problems.push(
        `${at('ChannelId')} names no channel (Email, Phone, Text/SMS or its aliases Text and SMS, Mail, Solicit)`,
      );
  }
  if (channel && value) {
    const fits = value.list === 'Emails' ? ['Email'] : ['Phone', 'Text/SMS'];
    if (!fits.includes(channel)) {
      const field = value.list === 'Emails' ? 'EmailAddress' : 'PhoneNumber';
      problems.push(
        `${at(field)} does not fit ${name('ChannelId')} ${JSON.stringify(channel)}, which is reached through ${channelReach(channel)}`,
      );
    }
  }
  if (channel && target?.kind === 'value' && (channel === 'Mail' || channel === 'Solicit')) {
    problems.push(
      `${name('ChannelId')} ${JSON.stringify(channel)} needs a profile (ProfileId or AlternateId)`,
    );
  }

  // For this: the program, and optionally a filter of it and a consent type.
  let programId: number | undefined;
  const programText = text('ProgramId');
  if (!given('ProgramId')) problems.push(`${name('ProgramId')} is required (value missing)`);
  else if (programText !== undefined) {
    const parsed = decimalId(programText);
    const program = parsed === undefined ? undefined : vocabulary.program(parsed);
    if (!program) problems.push(`${at('ProgramId')} names no program of this account`);
    else if (program.ProgramType === DNC_PROGRAM_TYPE)
      problems.push(
        `${at('ProgramId')} is a Do Not Contact program: ask about the program you would contact the person for (do-not-contact listings are part of every answer)`,
      );
    else programId = parsed;
  }
  let filterId: number | undefined;
  const filterText = text('FilterId');
  if (filterText !== undefined) {
    const parsed = decimalId(filterText);
    const filter = parsed === undefined ? undefined : vocabulary.filter(parsed);
    if (!filter) problems.push(`${at('FilterId')} names no filter of this account`);
    else if (programId !== undefined && filter.ProgramId !== programId)
      problems.push(
        `${at('FilterId')} is a filter of program ${filter.ProgramId}, not of program ${programId}`,
      );
    else if (channel && filter.ChannelId !== channel)
      problems.push(
        `${at('ChannelId')} is not the channel of filter ${filter.FilterId} (${filter.ChannelId})`,
      );
    else filterId = parsed;
  }
  let consentType: string | undefined;
  const typeText = text('ConsentType');
  if (typeText !== undefined) {
    const found = vocabulary.consentType(typeText);
    if (!found) problems.push(`${at('ConsentType')} names no consent type of this account`);
    else consentType = found.TypeName;
  }

  if (problems.length || !target || !channel || programId === undefined) {
    return { problems: problems.length ? problems : [`${name('ChannelId')} is required`] };
  }
  return {
    question: {
      target,
      ...(value ? { value } : {}),
      channel,
      programId,
      ...(filterId !== undefined ? { filterId } : {}),
      ...(consentType !== undefined ? { consentType } : {}),
    },
  };
}

/** Where a channel's preferences live, for messages. */
function channelReach(channel: DecisionChannel): string {
  switch (channel) {
    case 'Email':
      return 'an EmailAddress';
    case 'Phone':
    case 'Text/SMS':
      return 'a PhoneNumber';
    case 'Mail':
      return "the profile's address";
    default:
      return 'the profile itself';
  }
}

/** A decimal id as preferences carry it ("7", " 07 "), or undefined. */
function decimalId(value: string): number | undefined {
  if (!/^\s*\d{1,10}\s*$/.test(value)) return undefined;
  const id = Number(value);
  return id >= 1 && id <= INT32_MAX ? id : undefined;
}

/** Whether two consent type names are the same name (trimmed, case-insensitive). */
export function sameName(a: unknown, b: unknown): boolean {
  return textKey(a) === textKey(b);
}
