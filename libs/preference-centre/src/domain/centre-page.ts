import { createHash } from 'node:crypto';
import {
  type ClientPresentation,
  ConsentStatus,
  type PresentationConsentType,
  type PresentationFilter,
} from '@app/config';
import {
  type AddressDto,
  type EmailDto,
  type PhoneDto,
  type ProfileData,
  type StoredConsent,
  type StoredPreference,
} from '@app/profiles';
import { type GpcValue, gpcValueOf } from '@app/preferences';
import { textKey } from '@app/shared';
import { localeChain, localisedTags, pageLanguage, pick } from './localise';

/*
 * What the preference centre shows a person (docs/preference-centre.md, "What the page
 * shows"), built from the profile as GET reads it and the client's configuration: pure.
 */

/** Where a preference or consent lives: a contact element of a list, or the profile. */
export type ContactList = ContactRef['list'];

/**
 * A contact element of the page (or the profile itself): `identity` is the element as a
 * merge names it (empty for the profile), `label` how the page names it ("a@example.com";
 * empty for the profile).
 */
export type ContactRef =
  | { list: 'Emails'; identity: Pick<EmailDto, 'EmailAddress'>; label: string }
  | { list: 'PhoneNumbers'; identity: Pick<PhoneDto, 'PhoneNumber'>; label: string }
  | {
      list: 'Addresses';
      identity: Pick<AddressDto, 'AddressType' | 'Address1' | 'PostalCode'>;
      label: string;
    }
  | { list: 'Profile'; identity: Record<string, never>; label: string };

export interface CentreFrequency {
  id: string;
  label: string;
}

/** One choice: a filter of a program on one contact element (or the profile, for Solicit). */
export interface CentreChoice {
  /** Opaque, stable id of the choice (form field names). */
  id: string;
  programId: number;
  filterId: number;
  channel: string;
  contact: ContactRef;
  label: string;
  description?: string;
  optedIn: boolean;
  /** The stored preference, when there is one. */
  current?: StoredPreference;
  frequencies: CentreFrequency[];
  frequencyId?: string;
  /** Consents an opt-in records its agreement to (the filter's required consent types). */
  requiredConsents: CentreConsentText[];
  /** The filter requires preference attributes (which the page cannot enter). */
  requiresAttributes: boolean;
  /** The client marked the program (or filter) as a sale or sharing (SaleOrShare). */
  saleOrShare: boolean;
  /** How the stored preference records a Global Privacy Control signal, if it does. */
  gpc?: GpcValue;
  /** An opt-in held for the person's confirmation (its filter or program requires one). */
  awaitingConfirmation?: AwaitingConfirmation;
}

export interface CentreProgram {
  programId: number;
  label: string;
  description?: string;
  choices: CentreChoice[];
}

export interface CentreConsentText {
  typeName: string;
  label: string;
  version: string | null;
  text?: string;
}

/**
 * A grant or an opt-in held for the person's confirmation from their mailbox (double opt-in,
 * docs/double-opt-in.md): the address the link went to, masked (`a***@example.com`).
 */
export interface AwaitingConfirmation {
  address: string;
}

/** A consent the profile holds, with its type's text in the version held. */
export interface CentreConsent extends CentreConsentText {
  id: string;
  contact: ContactRef;
  status: number;
  granted: boolean;
  /** A grant held for the person's confirmation. */
  awaitingConfirmation?: AwaitingConfirmation;
}

export interface CentrePage {
  lang: string;
  greetingName?: string;
  programs: CentreProgram[];
  consents: CentreConsent[];
  /**
   * The client marked an active filter of a program the page could show as a sale or
   * sharing (SaleOrShare): the page acknowledges a Global Privacy Control signal.
   */
  saleOrShareMarked: boolean;
}

/** Channels of the contact lists; Solicit is the profile's own. */
const CHANNELS_OF: Record<Exclude<ContactList, 'Profile'>, string[]> = {
  Emails: ['Email'],
  PhoneNumbers: ['Phone', 'Text/SMS'],
  Addresses: ['Mail'],
};

/** Program types a person does not choose on the page. */
const HIDDEN_PROGRAM_TYPES = new Set(['do not contact (dnc)', 'transactional']);

/** The opaque id of a choice or consent (sha-256 of its identity, 16 hex). */
export function choiceId(parts: unknown[]): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, 16);
}

interface Element {
  contact: ContactRef;
  preferences: readonly StoredPreference[];
  consents: readonly StoredConsent[];
}

/** The active contact elements of the profile, and the profile itself (Solicit). */
export function contactElements(data: ProfileData): Element[] {
  const elements: Element[] = [];
  for (const email of data.Emails ?? []) {
    if (email.IsActive === false || !email.EmailAddress) continue;
    elements.push({
      contact: {
        list: 'Emails',
        identity: { EmailAddress: email.EmailAddress },
        label: email.EmailAddress,
      },
      preferences: email.EmailPreferences ?? [],
      consents: email.Consents ?? [],
    });
  }
  for (const phone of data.PhoneNumbers ?? []) {
    if (phone.IsActive === false || !phone.PhoneNumber) continue;
    elements.push({
      contact: {
        list: 'PhoneNumbers',
        identity: { PhoneNumber: phone.PhoneNumber },
        label: phone.PhoneNumber,
      },
      preferences: phone.PhonePreferences ?? [],
      consents: phone.Consents ?? [],
    });
  }
  for (const address of data.Addresses ?? []) {
    if (address.IsActive === false) continue;
    const identity: Pick<AddressDto, 'AddressType' | 'Address1' | 'PostalCode'> = {
      AddressType: address.AddressType,
    };
    if (address.Address1 !== undefined) identity.Address1 = address.Address1;
    if (address.PostalCode !== undefined) identity.PostalCode = address.PostalCode;
    elements.push({
      contact: {
        list: 'Addresses',
        identity,
        label: [address.Address1, address.City, address.PostalCode].filter(Boolean).join(', '),
      },
      preferences: address.AddressPreferences ?? [],
      consents: address.Consents ?? [],
    });
  }
  elements.push({
    contact: { list: 'Profile', identity: {}, label: '' },
    preferences: data.ProfilePreferences ?? [],
    consents: data.Consents ?? [],
  });
  return elements;
}

/**
 * An email address as the page names it where the person may not be its owner (anyone with
 * the link sees the page): the first character of the local part, `***`, the domain.
 */
export function maskedAddress(address: string): string {
  const at = address.lastIndexOf('@');
  if (at < 1) return '***';
  return `${address[0]}***${address.slice(at)}`;
}

/**
 * What a consent or preference carrying `PendingConfirmation` shows while it is not in effect
 * (granted, opted in): where its link went. Once confirmed (or expired: the mark cleared) the
 * page shows it as it shows any other.
 */
function awaitingOf(
  held: Pick<StoredConsent | StoredPreference, 'PendingConfirmation'> | undefined,
  inEffect: boolean,
  contact: ContactRef,
): { awaitingConfirmation?: AwaitingConfirmation } {
  return held?.PendingConfirmation && !inEffect
    ? { awaitingConfirmation: { address: maskedAddress(contact.label) } }
    : {};
}

function elementKey(contact: ContactRef): string[] {
  return [contact.list, ...Object.values(contact.identity).map((value) => textKey(value))];
}

function channelsOf(list: ContactList): string[] {
  return list === 'Profile' ? ['Solicit'] : CHANNELS_OF[list];
}

function sameId(a: unknown, b: number): boolean {
  return typeof a === 'string' || typeof a === 'number' ? Number(String(a).trim()) === b : false;
}

function channelKey(value: unknown): string {
  const key = textKey(value);
  return key === 'sms' || key === 'text' ? 'text/sms' : key;
}

/** The stored preference of a filter in a container, when there is one. */
function storedPreference(
  preferences: readonly StoredPreference[],
  programId: number,
  filter: PresentationFilter,
): StoredPreference | undefined {
  return preferences.find(
    (preference) =>
      sameId(preference.ProgramId, programId) &&
      sameId(preference.FilterId, filter.Id) &&
      channelKey(preference.ChannelId) === channelKey(filter.ChannelId),
  );
}

/** Whether a stored preference is an opt-in in effect (active, not expired). */
export function isOptedIn(preference: StoredPreference | undefined, now: Date): boolean {
  if (!preference || preference.IsActive === false) return false;
  if (preference.PreferenceType !== 1) return false;
  if (textKey(preference.PreferenceStatus) === 'expired') return false;
  if (preference.ExpirationDate && Date.parse(preference.ExpirationDate) <= now.getTime())
    return false;
  return true;
}

export function consentTypeOf(
  presentation: ClientPresentation,
  name: string | undefined,
): PresentationConsentType | undefined {
  const key = textKey(name);
  return (
    presentation.consentTypes.find((type) => textKey(type.TypeName) === key) ??
    presentation.consentTypes.find((type) => type.FormerNames.some((n) => textKey(n) === key))
  );
}

/** A consent type's name and the text of a version, in the chain's locale. */
export function consentText(
  type: PresentationConsentType | undefined,
  typeName: string,
  version: string | null | undefined,
  chain: readonly string[],
): CentreConsentText {
  if (!type) return { typeName, label: typeName, version: version ?? null };
  const named = pick(type.LocalizedFields, (f) => f.Locale, chain);
  const held = version ?? type.LatestVersion;
  const versionEntry = type.Versions.find((v) => textKey(v.ConsentVersion) === textKey(held));
  const texts = (versionEntry?.LocalizedFields ?? []).filter((f) => f.ConsentLanguage?.trim());
  const text = pick(texts, (f) => f.Locale, chain)?.ConsentLanguage?.trim();
  return {
    typeName: type.TypeName,
    label: named?.Name?.trim() || type.TypeName,
    version: versionEntry?.ConsentVersion ?? held ?? null,
    ...(text ? { text } : {}),
  };
}

/** The frequencies of a filter in the chain's locale, in display order. */
function frequenciesOf(filter: PresentationFilter, chain: readonly string[]): CentreFrequency[] {
  const locale = pick(
    filter.FrequencyLocales.filter((l) => l.Frequencies.length),
    (l) => l.ID,
    chain,
  );
  const list = locale ?? filter.FrequencyLocales.find((l) => l.Frequencies.length);
  if (!list) return [];
  return [...list.Frequencies]
    .sort((a, b) => (a.DisplayOrder ?? 0) - (b.DisplayOrder ?? 0))
    .map((frequency) => ({
      id: frequency.ID,
      label: frequency.DisplayName?.trim() || frequency.ID,
    }));
}

/** The page's content for the profile. */
export function buildCentrePage(
  data: ProfileData,
  presentation: ClientPresentation,
  now: Date,
): CentrePage {
  const chain = localeChain(data.DefaultLocale);
  const elements = contactElements(data);
  const programs: CentreProgram[] = [];
  let saleOrShareMarked = false;
  for (const program of presentation.programs) {
    if (!program.IsActive || HIDDEN_PROGRAM_TYPES.has(textKey(program.ProgramType))) continue;
    if (program.Filters.some((filter) => filter.IsActive && filter.SaleOrShare))
      saleOrShareMarked = true;
    const choices: CentreChoice[] = [];
    for (const filter of program.Filters) {
      if (!filter.IsActive) continue;
      const frequencies = frequenciesOf(filter, chain);
      const tags = localisedTags(filter.Locales, chain, filter.Name, filter.Description);
      for (const element of elements) {
        if (!channelsOf(element.contact.list).includes(filter.ChannelId)) continue;
        const current = storedPreference(element.preferences, program.Id, filter);
        const frequencyId = current?.FrequencyId?.trim() || undefined;
        const optedIn = isOptedIn(current, now);
        choices.push({
          id: choiceId(['choice', ...elementKey(element.contact), program.Id, filter.Id]),
          programId: program.Id,
          filterId: filter.Id,
          channel: filter.ChannelId,
          contact: element.contact,
          label: tags.name,
          ...(tags.description ? { description: tags.description } : {}),
          optedIn,
          ...(current ? { current } : {}),
          frequencies,
          ...(frequencyId ? { frequencyId } : {}),
          requiredConsents: filter.RequiredConsentTypes.map((name) =>
            consentText(consentTypeOf(presentation, name), name, null, chain),
          ),
          requiresAttributes: filter.RequiredAttributes.length > 0,
          saleOrShare: filter.SaleOrShare,
          ...(current && gpcValueOf(current.PreferenceAttributes)
            ? { gpc: gpcValueOf(current.PreferenceAttributes) }
            : {}),
          ...awaitingOf(current, optedIn, element.contact),
        });
      }
    }
    if (!choices.length) continue;
    const tags = localisedTags(program.Locales, chain, program.Name, program.Description);
    programs.push({
      programId: program.Id,
      label: tags.name,
      ...(tags.description ? { description: tags.description } : {}),
      choices,
    });
  }

  const consents: CentreConsent[] = [];
  for (const element of elements) {
    for (const consent of element.consents) {
      if (consent.IsActive === false || !consent.ConsentType) continue;
      const type = consentTypeOf(presentation, consent.ConsentType);
      if (type && !type.IsActive) continue;
      const status = consent.ConsentStatus ?? ConsentStatus.NotSet;
      const granted = status === ConsentStatus.Granted && consent.Expired !== true;
      consents.push({
        id: choiceId([
          'consent',
          ...elementKey(element.contact),
          textKey(type?.TypeName ?? consent.ConsentType),
        ]),
        contact: element.contact,
        status,
        granted,
        ...awaitingOf(consent, granted, element.contact),
        ...consentText(type, consent.ConsentType, consent.ConsentVersion, chain),
      });
    }
  }

  const first = data.CustomerName?.FirstName?.trim();
  return {
    lang: pageLanguage(data.DefaultLocale),
    ...(first ? { greetingName: first } : {}),
    programs,
    consents,
    saleOrShareMarked,
  };
}
