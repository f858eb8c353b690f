import { createHmac } from 'node:crypto';
import { textKey } from '@app/shared';
import type { ProfileData } from './profile-data.schema';
import { phoneDigits } from './text';

/** What an identifier of a person is. */
export type IdentifierKind = 'email' | 'phone' | 'alternateId' | 'name';

export const IDENTIFIER_KINDS: readonly IdentifierKind[] = [
  'email',
  'phone',
  'alternateId',
  'name',
];

/** One identifier in its normalised form (what two spellings of it have in common). */
export interface Identifier {
  kind: IdentifierKind;
  value: string;
}

/**
 * The normalised identifier, or null when nothing is left of it: emails trimmed, spaces
 * folded, lower-cased (as profiles match them); phones as their digits; an alternate id as
 * its type and value, each a text key; a name as first and last name, text keys.
 */
export function normaliseIdentifier(
  kind: IdentifierKind,
  value: string,
  type?: string,
): Identifier | null {
  let normalised: string;
  switch (kind) {
    case 'email':
      normalised = textKey(value);
      break;
    case 'phone':
      normalised = phoneDigits(value);
      break;
    case 'alternateId':
      normalised = textKey(value) ? [textKey(type ?? ''), textKey(value)].join('\n') : '';
      break;
    case 'name':
      normalised = textKey(value);
      break;
  }
  return normalised ? { kind, value: normalised } : null;
}

/** "First Last", the name identifier of a profile (middle name, prefix, suffix left out). */
export function nameOf(name: { FirstName?: string; LastName?: string } | undefined): string {
  return [name?.FirstName ?? '', name?.LastName ?? ''].join(' ');
}

/**
 * Every identifier a profile's data holds, active and inactive elements alike: its emails,
 * phones, alternate ids and its name; each once.
 */
export function identifiersOf(data: ProfileData | undefined): Identifier[] {
  if (!data) return [];
  const found = [
    ...(data.Emails ?? []).map((email) => normaliseIdentifier('email', email.EmailAddress)),
    ...(data.PhoneNumbers ?? []).map((phone) => normaliseIdentifier('phone', phone.PhoneNumber)),
    ...(data.AlternateIds ?? []).map((pair) =>
      normaliseIdentifier('alternateId', pair.AlternateId, pair.AlternateIdType),
    ),
    normaliseIdentifier('name', nameOf(data.CustomerName)),
  ];
  const seen = new Set<string>();
  return found.filter((identifier): identifier is Identifier => {
    if (!identifier) return false;
    const key = [identifier.kind, identifier.value].join('\n');
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** HMAC-SHA-256 (hex) of the kind and normalised value under `secret`. */
export function identifierHash(secret: Buffer, identifier: Identifier): string {
  return createHmac('sha256', secret)
    .update(identifier.kind)
    .update('\n')
    .update(identifier.value)
    .digest('hex');
}
