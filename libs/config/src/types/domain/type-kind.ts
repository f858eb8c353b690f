/*
 * The kinds of type-configuration entries. A kind's value is its v4 collection name: the
 * path segment (`/{clientId}/AddressTypes`), the wrapper key of bodies and answers
 * (`{ "AddressTypes": [...] }`) and the kind of its id and name claims.
 */

export const TYPE_KINDS = [
  'AddressTypes',
  'AlternateIdTypes',
  'CustomerTypes',
  'GroupTypes',
  'EmailTypes',
  'PhoneTypes',
] as const;

export type TypeKind = (typeof TYPE_KINDS)[number];

export interface TypeKindInfo {
  /** The older singular path segment, accepted as an alias of the PATCH route. */
  singular: string;
  /** How messages name one entry ("Address type 3 was not found"). */
  label: string;
  /** What the kind classifies, for the OpenAPI description. */
  classifies: string;
}

export const TYPE_KIND_INFO: Record<TypeKind, TypeKindInfo> = {
  AddressTypes: {
    singular: 'AddressType',
    label: 'Address type',
    classifies:
      'mailing addresses, the Mail channel (Addresses[].AddressType of a profile; every address has one)',
  },
  AlternateIdTypes: {
    singular: 'AlternateIdType',
    label: 'Alternate id type',
    classifies:
      'alternate ids (AlternateIds[].AlternateIdType of a profile); values are unique per type across the profiles of a client',
  },
  CustomerTypes: {
    singular: 'CustomerType',
    label: 'Customer type',
    classifies: 'profiles, for example Customer or Prospect (CustomerType of a profile)',
  },
  GroupTypes: {
    singular: 'GroupType',
    label: 'Group type',
    classifies: 'groups (Groups[].GroupType of a profile)',
  },
  EmailTypes: {
    singular: 'EmailType',
    label: 'Email type',
    classifies: 'email addresses, the Email channel (Emails[].EmailAddressType of a profile)',
  },
  PhoneTypes: {
    singular: 'PhoneType',
    label: 'Phone type',
    classifies:
      'phone numbers (PhoneNumbers[].PhoneType of a profile). SMS has no kind of its own: a text message goes to a ' +
      'phone number, so phone types classify the numbers of the Phone, Fax and Text/SMS channels alike ' +
      '(a type such as "Mobile" is what SMS preferences attach to)',
  },
};

export function isTypeKind(value: string): value is TypeKind {
  return (TYPE_KINDS as readonly string[]).includes(value);
}
