import { ConsentStatus } from '@app/config';
import { DNC_LISTS_ATTRIBUTE } from '@app/consents';
import {
  type ContactElement,
  contactPreferences,
  contactRefKey,
  type ElementBody,
  elementsOf,
  fieldOf,
  type HistoryRefs,
  itemRefKey,
  PROFILE_REF_KEY,
  type ProfileData,
  type StoredConsent,
  type StoredConsentAssociation,
  type StoredPreference,
  type StoredPreferenceAttribute,
  preferenceIdKey,
} from '@app/profiles';
import { GPC_VALUES, type GpcValue, gpcValueOf } from '@app/preferences';
import { textKey } from '@app/shared';
import { type ContactQuestion, type DecisionChannel, emailKey, phoneKey } from './contact-question';

/*
 * The contact decision (docs/decisions.md): from one profile's stored data, its history
 * references, the client's configuration and the do-not-contact lists, whether the
 * question's contact is allowed now, with every reason. Pure: time, configuration and
 * listings are arguments. The rules are the write path's own: preferences as the
 * preference rules store them (status, expiry, opt-in/opt-out, the consents their filter
 * requires and their consent associations), consents as the consent rules do (Granted,
 * Expired, ExpirationDate), do-not-contact as the lists and their marks do.
 */

type ContactList = 'Emails' | 'PhoneNumbers' | 'Addresses';

export type ReasonCode =
  | 'PendingWrite'
  | 'ProfileNotFound'
  | 'ProfileInactive'
  | 'NoProfile'
  | 'ElementNotFound'
  | 'ElementInactive'
  | 'DoNotContact'
  | 'ProgramInactive'
  | 'FilterInactive'
  | 'NoPreference'
  | 'PreferenceArchived'
  | 'OptedIn'
  | 'OptedOut'
  | 'GpcOptOut'
  | 'PreferenceTypeUnset'
  | 'PreferenceExpired'
  | 'ConsentGranted'
  | 'ConsentMissing'
  | 'ConsentDenied'
  | 'ConsentRevoked'
  | 'ConsentNotSet'
  | 'ConsentExpired'
  | 'AwaitingConfirmation';

/** Allow: the reason permits contact; Deny: it forbids it; Note: it informs only. */
export type ReasonEffect = 'Allow' | 'Deny' | 'Note';

/** The contact element a reason is about, by the fields that name it. */
export interface ReasonContact {
  list: ContactList;
  fields: Record<string, string | undefined>;
}

export interface ReasonPreference {
  ProgramId?: string;
  ChannelId?: string;
  FilterId?: string;
  MatchType: 'Expressed' | 'Implied';
  PreferenceType?: number;
  PreferenceStatus?: string;
  ExpirationDate?: string;
  IsActive: boolean;
  /** How the preference records a Global Privacy Control signal (`$GlobalPrivacyControl`). */
  GlobalPrivacyControl?: GpcValue;
}

export interface ReasonConsent {
  ConsentType: string;
  /** Why the consent is needed: the filter requires it, the preference is associated with it, or the question names it. */
  RequiredBy: ('Filter' | 'Association' | 'Question')[];
  ConsentStatus?: number;
  ConsentVersion?: string;
  ConsentDate?: string;
  ExpirationDate?: string;
  Expired?: boolean;
  UpdatedVersionPending?: boolean;
}

export interface ReasonListing {
  ListId: number;
  ListName: string;
  ReasonCode?: string;
  ListedAt: string;
  Propagated: boolean;
}

export interface DecisionReason {
  code: ReasonCode;
  effect: ReasonEffect;
  message: string;
  profileId?: number;
  /** Where the item sits: on a contact element or on the profile itself. */
  level?: 'Profile' | 'ContactElement';
  contact?: ReasonContact;
  preference?: ReasonPreference;
  consent?: ReasonConsent;
  listings?: ReasonListing[];
  /** Whether the profile carries the do-not-contact mark (the lists' propagation reached it). */
  marked?: boolean;
  pending?: { appliedSeq: number; acceptedSeq: number };
  /** The history entry that proves the reason (`<client>|<profile>|<seq>|<n>`), null when none is known. */
  historyEntryId: string | null;
}

/** One profile's answer to a question. */
export interface ProfileDecision {
  allowed: boolean;
  reasons: DecisionReason[];
  /**
   * The first time (ms) after `now` at which the same inputs give another answer: the
   * earliest future expiry the rules compared (a preference's or a consent's
   * ExpirationDate); Infinity when none. Until then the answer may be reused.
   */
  changesAt: number;
}

/** What the decision needs of the client's configuration. */
export interface DecisionConfiguration {
  program(programId: number): { IsActive: boolean; ProgramType: string } | undefined;
  filter(filterId: number):
    | {
        ProgramId: number;
        FilterId: number;
        ChannelId: string;
        IsActive: boolean;
        RequiredConsentTypes: string[];
      }
    | undefined;
  /** The consent type's current name (a former name finds it too), or undefined. */
  consentTypeName(name: string): string | undefined;
  channel(value: string): string | undefined;
}

/** The profile as the read model holds it. */
export interface DecisionProfile {
  profileId: number;
  data: ProfileData;
  appliedSeq: number;
  acceptedSeq: number;
  refs: HistoryRefs;
}

/** The do-not-contact lists' entries holding the chosen element's value. */
export type ListingsOf = (list: 'Emails' | 'PhoneNumbers', key: string) => readonly ReasonListing[];

/** The list holding a channel's contact elements, and their preference container. */
const CHANNEL_PLACES: Record<DecisionChannel, { list?: ContactList; container: string }> = {
  Email: { list: 'Emails', container: 'EmailPreferences' },
  Phone: { list: 'PhoneNumbers', container: 'PhonePreferences' },
  'Text/SMS': { list: 'PhoneNumbers', container: 'PhonePreferences' },
  Mail: { list: 'Addresses', container: 'AddressPreferences' },
  Solicit: { container: 'ProfilePreferences' },
};

const DNC_PROGRAM_TYPE = 'Do Not Contact (DNC)';

/** The contact element a question is about on a profile (undefined: none; the reason says why). */
export interface ChosenElement {
  list: ContactList;
  element: ContactElement;
  /** The element's match key (email lower-cased, phone digits), for the lists. */
  key?: string;
}

/**
 * The element of the question's channel: the one named by EmailAddress / PhoneNumber, else
 * the default active one (IsDefault, else the first active). Solicit has none (the
 * profile's own preferences).
 */
export function chooseElement(
  question: ContactQuestion,
  data: ProfileData,
): { element?: ChosenElement; problem?: 'ElementNotFound' | 'ElementInactive' } {
  const { list } = CHANNEL_PLACES[question.channel];
  if (!list) return {};
  const elements = elementsOf<ContactElement>(data[list]);
  if (question.value && question.value.list === list) {
    const wanted = question.value.key;
    const named = elements.filter((element) => elementKey(list, element) === wanted);
    const active = named.find((element) => element.IsActive !== false);
    if (active) return { element: { list, element: active, key: wanted } };
    if (named.length)
      return { element: { list, element: named[0], key: wanted }, problem: 'ElementInactive' };
    return { problem: 'ElementNotFound' };
  }
  const active = elements.filter((element) => element.IsActive !== false);
  const chosen = active.find((element) => element.IsDefault === true) ?? active[0];
  if (!chosen) return { problem: 'ElementNotFound' };
  return { element: { list, element: chosen, key: elementKey(list, chosen) } };
}

/** The key a contact element matches the lists under (email lower-cased, phone digits). */
function elementKey(list: ContactList, element: ContactElement): string | undefined {
  if (list === 'Emails')
    return 'EmailAddress' in element && typeof element.EmailAddress === 'string'
      ? (emailKey(element.EmailAddress) ?? undefined)
      : undefined;
  if (list === 'PhoneNumbers')
    return 'PhoneNumber' in element && typeof element.PhoneNumber === 'string'
      ? (phoneKey(element.PhoneNumber) ?? undefined)
      : undefined;
  return undefined;
}

/**
 * Whether the question's contact is allowed on this profile now, and why. Allowed when
 * the profile is active, the channel's contact element exists and is active, no
 * do-not-contact listing or mark holds it, the program (and filter) are active, and at
 * least one active preference of the program on that channel (the named filter's, or any
 * filter's) is an opt-in, Active and not past its ExpirationDate, with every consent it
 * requires Granted and not expired.
 */
export function decideForProfile(
  question: ContactQuestion,
  profile: DecisionProfile,
  configuration: DecisionConfiguration,
  listingsOf: ListingsOf,
  now: Date,
): ProfileDecision {
  const { profileId, data, refs } = profile;
  const reasons: DecisionReason[] = [];
  let changesAt = Infinity;
  const nowMs = now.getTime();
  /** Whether `time` (ms) has come; a time still to come is when the answer may change. */
  const reached = (time: number): boolean => {
    if (time <= nowMs) return true;
    if (time < changesAt) changesAt = time;
    return false;
  };
  const reason = (entry: Omit<DecisionReason, 'profileId'>) => {
    reasons.push({ profileId, ...entry });
    return entry;
  };
  if (profile.acceptedSeq > profile.appliedSeq) {
    reason({
      code: 'PendingWrite',
      effect: 'Note',
      message: `Write ${profile.acceptedSeq} of the profile is accepted but not applied yet (applied: ${profile.appliedSeq}): it may change this answer`,
      pending: { appliedSeq: profile.appliedSeq, acceptedSeq: profile.acceptedSeq },
      historyEntryId: null,
    });
  }
  const answer = (): ProfileDecision => ({
    allowed: !reasons.some((r) => r.effect === 'Deny') && reasons.some((r) => r.effect === 'Allow'),
    reasons,
    changesAt,
  });

  if (data.IsActive === false) {
    reason({
      code: 'ProfileInactive',
      effect: 'Deny',
      level: 'Profile',
      message: 'The profile is inactive',
      historyEntryId: refs[PROFILE_REF_KEY] ?? null,
    });
    return answer();
  }

  const { container } = CHANNEL_PLACES[question.channel];
  const chosen = chooseElement(question, data);
  const contact = chosen.element ? describeContact(chosen.element) : undefined;
  if (chosen.problem === 'ElementNotFound') {
    reason({
      code: 'ElementNotFound',
      effect: 'Deny',
      level: 'ContactElement',
      message: question.value
        ? `The profile has no ${question.value.list === 'Emails' ? 'email address' : 'phone number'} ${JSON.stringify(question.value.text)}`
        : `The profile has no active contact element for ${question.channel}`,
      historyEntryId: null,
    });
  } else if (chosen.problem === 'ElementInactive' && chosen.element) {
    reason({
      code: 'ElementInactive',
      effect: 'Deny',
      level: 'ContactElement',
      contact,
      message: `The ${describeList(chosen.element.list)} is inactive`,
      historyEntryId: refs[contactRefKey(chosen.element.list, chosen.element.element)] ?? null,
    });
  }
  const element = chosen.problem ? undefined : chosen.element;

  // Do not contact: the lists holding the value, and the mark their propagation leaves.
  if (element && (element.list === 'Emails' || element.list === 'PhoneNumbers') && element.key) {
    const listings = listingsOf(element.list, element.key);
    const markContainer = element.list === 'Emails' ? 'EmailPreferences' : 'PhonePreferences';
    // The email's or phone's own preferences (markContainer).
    const marks = elementsOf<StoredPreference>(contactPreferences(element.element)).filter(
      (preference) =>
        preference.IsActive !== false &&
        (hasDncAttribute(preference) ||
          (configuration.program(Number(preferenceIdKey(preference.ProgramId)))?.ProgramType ===
            DNC_PROGRAM_TYPE &&
            preference.PreferenceType === 1)),
    );
    if (listings.length || marks.length) {
      const mark = marks[0];
      reason({
        code: 'DoNotContact',
        effect: 'Deny',
        level: 'ContactElement',
        contact,
        listings: [...listings],
        marked: marks.length > 0,
        message: listings.length
          ? `${listings.map((l) => `list ${l.ListId}`).join(', ')} ${listings.length > 1 ? 'hold' : 'holds'} this ${describeList(element.list)}${marks.length ? '' : ' (not yet marked on the profile)'}`
          : `The ${describeList(element.list)} carries a do-not-contact preference`,
        historyEntryId: mark
          ? (refs[
              itemRefKey(markContainer, mark, { list: element.list, element: element.element })
            ] ?? null)
          : null,
      });
    }
  }

  const program = configuration.program(question.programId);
  if (program && !program.IsActive) {
    reason({
      code: 'ProgramInactive',
      effect: 'Deny',
      message: `Program ${question.programId} is inactive`,
      historyEntryId: null,
    });
  }
  const askedFilter =
    question.filterId === undefined ? undefined : configuration.filter(question.filterId);
  if (askedFilter && !askedFilter.IsActive) {
    reason({
      code: 'FilterInactive',
      effect: 'Deny',
      message: `Filter ${question.filterId} is inactive`,
      historyEntryId: null,
    });
  }
  if (!element && CHANNEL_PLACES[question.channel].list) return answer();

  // The preferences of the program on the channel (the named filter's, or every filter's).
  const holder: ContactElement | ProfileData = element ? element.element : data;
  const level = element ? 'ContactElement' : 'Profile';
  const placeOf = element ? { list: element.list, element: element.element } : undefined;
  const refOf = (list: string, item: ElementBody) => refs[itemRefKey(list, item, placeOf)] ?? null;
  const matching = elementsOf<StoredPreference>(fieldOf(holder, container)).filter(
    (preference) =>
      preferenceIdKey(preference.ProgramId) === String(question.programId) &&
      configuration.channel(String(preference.ChannelId ?? '')) === question.channel &&
      (question.filterId === undefined ||
        preferenceIdKey(preference.FilterId) === String(question.filterId)) &&
      !hasDncAttribute(preference),
  );
  const active = matching.filter((preference) => preference.IsActive !== false);
  if (!active.length) {
    const archived = matching[matching.length - 1];
    reason(
      archived
        ? {
            code: 'PreferenceArchived',
            effect: 'Deny',
            level,
            contact,
            preference: describePreference(archived),
            message: `The preference on filter ${String(archived.FilterId)} is archived (inactive)`,
            historyEntryId: refOf(container, archived),
          }
        : {
            code: 'NoPreference',
            effect: 'Deny',
            level,
            contact,
            message: `No preference of program ${question.programId}${question.filterId !== undefined ? ` on filter ${question.filterId}` : ''} for ${question.channel}${element ? ` on this ${describeList(element.list)}` : ' on the profile'}`,
            historyEntryId: null,
          },
    );
    return answer();
  }

  // Each preference with its consents; without a filter, one allowing preference suffices.
  const perPreference = active.map((preference) =>
    preferenceReasons(preference, question, configuration, holder, data, {
      level,
      contact,
      refOf,
      profileRef: (item) => refs[itemRefKey('Consents', item)] ?? null,
      reached,
    }),
  );
  const allows = perPreference.find((own) => own.every((r) => r.effect !== 'Deny'));
  // With one allowing preference, the others' refusals are reported as notes.
  for (const own of perPreference) {
    for (const r of own)
      reason(allows && own !== allows && r.effect === 'Deny' ? { ...r, effect: 'Note' } : r);
  }
  return answer();
}

interface PreferenceContext {
  level: 'Profile' | 'ContactElement';
  contact?: ReasonContact;
  /** The entry of a preference or consent of the question's holder (element or profile). */
  refOf: (list: string, item: ElementBody) => string | null;
  profileRef: (item: ElementBody) => string | null;
  /** Whether a time (ms) has come (decideForProfile's: it notes the times still to come). */
  reached: (time: number) => boolean;
}

function preferenceReasons(
  preference: StoredPreference,
  question: ContactQuestion,
  configuration: DecisionConfiguration,
  holder: ContactElement | ProfileData,
  data: ProfileData,
  ctx: PreferenceContext,
): Omit<DecisionReason, 'profileId'>[] {
  const { container } = CHANNEL_PLACES[question.channel];
  const reasons: Omit<DecisionReason, 'profileId'>[] = [];
  const described = describePreference(preference);
  const base = {
    level: ctx.level,
    contact: ctx.contact,
    preference: described,
    historyEntryId: ctx.refOf(container, preference),
  };
  const filter = `filter ${String(preference.FilterId)}`;
  const implied = described.MatchType === 'Implied' ? ' (implied)' : '';
  const expiry = Date.parse(String(preference.ExpirationDate));
  if (preference.PreferenceType === 2 && described.GlobalPrivacyControl === GPC_VALUES.optOut) {
    reasons.push({
      ...base,
      code: 'GpcOptOut',
      effect: 'Deny',
      message: `Opted out on ${filter} by a Global Privacy Control signal (the person's browser sent Sec-GPC: 1; the program counts as a sale or sharing)`,
    });
  } else if (preference.PreferenceType !== 1 && preference.PendingConfirmation) {
    // An opt-in held for the person's confirmation (double opt-in) does not count yet.
    reasons.push({
      ...base,
      code: 'AwaitingConfirmation',
      effect: 'Deny',
      message: `The opt-in on ${filter} was asked for on ${preference.PendingConfirmation.RequestedDate} and awaits the person's confirmation from their mailbox`,
    });
  } else if (preference.PreferenceType === 2) {
    reasons.push({
      ...base,
      code: 'OptedOut',
      effect: 'Deny',
      message: `Opted out on ${filter}${implied}`,
    });
  } else if (preference.PreferenceType !== 1) {
    reasons.push({
      ...base,
      code: 'PreferenceTypeUnset',
      effect: 'Deny',
      message: `The preference on ${filter} is neither an opt-in nor an opt-out (no PreferenceType)`,
    });
  } else if (
    textKey(preference.PreferenceStatus) === 'expired' ||
    (!Number.isNaN(expiry) && ctx.reached(expiry))
  ) {
    reasons.push({
      ...base,
      code: 'PreferenceExpired',
      effect: 'Deny',
      message: `The opt-in on ${filter} expired${typeof preference.ExpirationDate === 'string' ? ` (${preference.ExpirationDate})` : ''}`,
    });
  } else {
    reasons.push({
      ...base,
      code: 'OptedIn',
      effect: 'Allow',
      message: `Opted in on ${filter}${implied}${described.GlobalPrivacyControl === GPC_VALUES.optInConfirmed ? ', confirmed by the person while their browser sent a Global Privacy Control signal' : ''}`,
    });
  }

  // The consents it requires: its filter's, its active associations', the question's.
  const required = new Map<
    string,
    { name: string; by: Set<'Filter' | 'Association' | 'Question'> }
  >();
  const need = (name: string, by: 'Filter' | 'Association' | 'Question') => {
    const current = configuration.consentTypeName(name) ?? name;
    const key = textKey(current);
    const entry = required.get(key) ?? { name: current, by: new Set() };
    entry.by.add(by);
    required.set(key, entry);
  };
  const filterConfig = configuration.filter(Number(preferenceIdKey(preference.FilterId)));
  for (const name of filterConfig?.RequiredConsentTypes ?? []) need(name, 'Filter');
  for (const association of elementsOf<StoredConsentAssociation>(preference.ConsentAssociations)) {
    if (association.IsActive !== false && typeof association.ConsentType === 'string')
      need(association.ConsentType, 'Association');
  }
  if (question.consentType) need(question.consentType, 'Question');

  const elementLevel = holder !== data;
  for (const { name, by } of required.values()) {
    const matches = (consent: StoredConsent) =>
      textKey(
        configuration.consentTypeName(String(consent.ConsentType ?? '')) ?? consent.ConsentType,
      ) === textKey(name);
    // A consent on the contact element first, then the profile's own.
    const places: {
      consents: StoredConsent[];
      level: 'Profile' | 'ContactElement';
      ref: (c: StoredConsent) => string | null;
    }[] = [];
    if (elementLevel)
      places.push({
        consents: elementsOf<StoredConsent>(holder.Consents),
        level: 'ContactElement',
        ref: (c) => ctx.refOf('Consents', c),
      });
    places.push({
      consents: elementsOf<StoredConsent>(data.Consents),
      level: 'Profile',
      ref: ctx.profileRef,
    });
    let found:
      | { consent: StoredConsent; level: 'Profile' | 'ContactElement'; ref: string | null }
      | undefined;
    let inactive:
      | { consent: StoredConsent; level: 'Profile' | 'ContactElement'; ref: string | null }
      | undefined;
    for (const place of places) {
      const consent = place.consents.find((c) => matches(c) && c.IsActive !== false);
      if (consent) {
        found = { consent, level: place.level, ref: place.ref(consent) };
        break;
      }
      const gone = place.consents.find((c) => matches(c));
      if (gone && !inactive) inactive = { consent: gone, level: place.level, ref: place.ref(gone) };
    }
    const requiredBy = [...by].sort();
    if (!found) {
      reasons.push({
        code: 'ConsentMissing',
        effect: 'Deny',
        level: inactive?.level,
        contact: inactive?.level === 'ContactElement' ? ctx.contact : undefined,
        consent: { ConsentType: name, RequiredBy: requiredBy },
        message: `No active ${JSON.stringify(name)} consent${inactive ? ' (the one held was deactivated)' : ''}, which ${requiredBy.map(describeRequirer).join(' and ')} ${requiredBy.length > 1 ? 'require' : 'requires'}`,
        historyEntryId: inactive?.ref ?? null,
      });
      continue;
    }
    const consent = found.consent;
    const described: ReasonConsent = {
      ConsentType: name,
      RequiredBy: requiredBy,
      ConsentStatus: consent.ConsentStatus,
      ConsentVersion: consent.ConsentVersion,
      ConsentDate: consent.ConsentDate,
      ExpirationDate: consent.ExpirationDate,
      Expired: consent.Expired ?? false,
      UpdatedVersionPending: consent.UpdatedVersionPending ?? false,
    };
    const at = {
      level: found.level,
      contact: found.level === 'ContactElement' ? ctx.contact : undefined,
      consent: described,
      historyEntryId: found.ref,
    };
    const until = Date.parse(String(consent.ExpirationDate));
    const label = JSON.stringify(name);
    if (consent.ConsentStatus === ConsentStatus.Granted) {
      if (consent.Expired === true || (!Number.isNaN(until) && ctx.reached(until)))
        reasons.push({
          ...at,
          code: 'ConsentExpired',
          effect: 'Deny',
          message: `The ${label} consent expired${consent.ExpirationDate ? ` (${consent.ExpirationDate})` : ''}`,
        });
      else
        reasons.push({
          ...at,
          code: 'ConsentGranted',
          effect: 'Allow',
          message: `${label} granted on version ${consent.ConsentVersion ?? '(none)'}${consent.ExpirationDate ? `, until ${consent.ExpirationDate}` : ''}${consent.UpdatedVersionPending ? '; a newer version awaits re-consent' : ''}`,
        });
    } else if (consent.PendingConfirmation) {
      // A grant held for the person's confirmation (double opt-in) does not count yet.
      reasons.push({
        ...at,
        code: 'AwaitingConfirmation',
        effect: 'Deny',
        message: `The ${label} consent was granted on ${consent.PendingConfirmation.RequestedDate} and awaits the person's confirmation from their mailbox`,
      });
    } else if (consent.ConsentStatus === ConsentStatus.Denied) {
      reasons.push({
        ...at,
        code: 'ConsentDenied',
        effect: 'Deny',
        message: `The ${label} consent is Denied`,
      });
    } else if (consent.ConsentStatus === ConsentStatus.Revoked) {
      reasons.push({
        ...at,
        code: 'ConsentRevoked',
        effect: 'Deny',
        message: `The ${label} consent is Revoked${consent.ReasonCode ? ` (${consent.ReasonCode})` : ''}`,
      });
    } else {
      reasons.push({
        ...at,
        code: 'ConsentNotSet',
        effect: 'Deny',
        message: `The ${label} consent is NotSet (never answered)`,
      });
    }
  }
  return reasons;
}

function describeRequirer(by: 'Filter' | 'Association' | 'Question'): string {
  return by === 'Filter'
    ? 'the filter'
    : by === 'Association'
      ? "the preference's association"
      : 'the question';
}

function describePreference(preference: StoredPreference): ReasonPreference {
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  const gpc = gpcValueOf(preference.PreferenceAttributes);
  return {
    ProgramId: text(preference.ProgramId),
    ChannelId: text(preference.ChannelId),
    FilterId: text(preference.FilterId),
    MatchType: textKey(preference.MatchType) === 'implied' ? 'Implied' : 'Expressed',
    PreferenceType:
      typeof preference.PreferenceType === 'number' ? preference.PreferenceType : undefined,
    PreferenceStatus: text(preference.PreferenceStatus),
    ExpirationDate: text(preference.ExpirationDate),
    IsActive: preference.IsActive !== false,
    ...(gpc ? { GlobalPrivacyControl: gpc } : {}),
  };
}

function describeContact(chosen: ChosenElement): ReasonContact {
  const text = (field: string) => {
    const value = fieldOf(chosen.element, field);
    return typeof value === 'string' ? value : undefined;
  };
  const fields =
    chosen.list === 'Emails'
      ? { EmailAddress: text('EmailAddress') }
      : chosen.list === 'PhoneNumbers'
        ? { PhoneNumber: text('PhoneNumber') }
        : {
            AddressType: text('AddressType'),
            Address1: text('Address1'),
            PostalCode: text('PostalCode'),
          };
  return { list: chosen.list, fields };
}

function describeList(list: ContactList): string {
  return list === 'Emails' ? 'email address' : list === 'PhoneNumbers' ? 'phone number' : 'address';
}

function hasDncAttribute(preference: StoredPreference): boolean {
  return elementsOf<StoredPreferenceAttribute>(preference.PreferenceAttributes).some(
    (attribute) => attribute.Key === DNC_LISTS_ATTRIBUTE,
  );
}
