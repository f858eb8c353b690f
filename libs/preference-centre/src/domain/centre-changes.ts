import { type ConsentDto, type PreferenceDto, type ProfileDto } from '@app/profiles';
import { GPC_ATTRIBUTE, GPC_SOURCE, GPC_VALUES, type GpcValue } from '@app/preferences';
import { textKey } from '@app/shared';
import { PREFERENCE_CENTRE_USER } from './centre-user';
import type { UnsubscribeScope } from './link-token';
import type { CentreChoice, CentreConsent, CentrePage, ContactRef } from './centre-page';

/*
 * What a person's submission changes, as the body of an ordinary merge write
 * (docs/preference-centre.md, "Saving"): only the choices and consents that differ from
 * what the profile holds now are written; everything else of the profile is left as it is.
 */

/** The page's form, as parsed (application/x-www-form-urlencoded). */
export type CentreForm = Record<string, string | string[] | undefined>;

interface ContainerChanges {
  contact: ContactRef;
  preferences: PreferenceDto[];
  consents: ConsentDto[];
}

/** A merge body: only what changes, each contact element named by its identity. */
export type CentreMergeBody = Pick<
  ProfileDto,
  'ProfilePreferences' | 'Consents' | 'Emails' | 'PhoneNumbers' | 'Addresses'
>;

export interface CentreChanges {
  /** The merge body, or null when nothing changes. */
  body: CentreMergeBody | null;
  /** How many preferences and consents change. */
  preferences: number;
  consents: number;
  /**
   * Opt-ins of programs marked SaleOrShare that the form asks for while the browser sends a
   * Global Privacy Control signal, without the confirmation: nothing is written (body null)
   * until the person confirms them.
   */
  needsConfirmation?: CentreChoice[];
  /**
   * The ids of the consents the body grants and of the choices it opts in to: a consent type,
   * a filter or a program requiring confirmation holds them (double opt-in).
   */
  asked?: string[];
}

/** Form field names: the choices and consents the page showed, and what is ticked. */
export const FIELD = {
  shown: 'shown',
  optIn: (id: string) => ['in', id].join('.'),
  frequency: (id: string) => ['freq', id].join('.'),
  consentShown: 'consentShown',
  consent: (id: string) => ['consent', id].join('.'),
  action: 'action',
  /**
   * The answer to the confirmation the page asks for before an opt-in of sale or sharing
   * while the browser sends a GPC signal: "1" opt in anyway, "0" save the rest without them.
   */
  gpcConfirm: 'gpcConfirm',
} as const;

function values(form: CentreForm, name: string): string[] {
  const value = form[name];
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

function first(form: CentreForm, name: string): string | undefined {
  return values(form, name)[0];
}

/**
 * What a written preference says of the Global Privacy Control signal: the value of the
 * reserved attribute, or null to clear a confirmation that no longer stands (a person's
 * opt-out of an opt-in they had confirmed); undefined leaves the stored attribute alone.
 */
type GpcMark = GpcValue | null | undefined;

/** The mark of a person's own change: an opt-out ends a confirmed opt-in's confirmation. */
function ownChangeMark(choice: CentreChoice, optIn: boolean): GpcMark {
  return !optIn && choice.gpc === GPC_VALUES.optInConfirmed ? null : undefined;
}

function preferenceOf(
  choice: CentreChoice,
  optIn: boolean,
  frequencyId?: string,
  gpc: GpcMark = ownChangeMark(choice, optIn),
): PreferenceDto {
  return {
    ProgramId: String(choice.programId),
    ChannelId: choice.channel,
    FilterId: String(choice.filterId),
    PreferenceType: optIn ? 1 : 2,
    MatchType: 'Expressed',
    UserId: PREFERENCE_CENTRE_USER,
    SourceId: gpc === GPC_VALUES.optOut ? GPC_SOURCE : PREFERENCE_CENTRE_USER,
    ...(gpc !== undefined ? { PreferenceAttributes: [{ Key: GPC_ATTRIBUTE, Value: gpc }] } : {}),
    ...(optIn && frequencyId ? { FrequencyId: frequencyId } : {}),
    ...(optIn && choice.requiredConsents.length
      ? {
          ConsentAssociations: choice.requiredConsents.map((consent) => ({
            ConsentType: consent.typeName,
            ...(consent.version ? { ConsentVersion: consent.version } : {}),
          })),
        }
      : {}),
  };
}

/**
 * What changes on one container: its preferences under `field`, its consents. Only those
 * that change: an absent field is left alone by the merge, a null one would clear it.
 */
function changedFields<K extends string>(field: K, { preferences, consents }: ContainerChanges) {
  return {
    ...(preferences.length ? ({ [field]: preferences } as Record<K, PreferenceDto[]>) : {}),
    ...(consents.length ? { Consents: consents } : {}),
  };
}

function toBody(containers: Map<string, ContainerChanges>): CentreMergeBody | null {
  if (!containers.size) return null;
  const body: CentreMergeBody = {};
  for (const changes of containers.values()) {
    const { contact } = changes;
    switch (contact.list) {
      case 'Profile':
        Object.assign(body, changedFields('ProfilePreferences', changes));
        break;
      case 'Emails':
        (body.Emails ??= []).push({
          ...contact.identity,
          ...changedFields('EmailPreferences', changes),
        });
        break;
      case 'PhoneNumbers':
        (body.PhoneNumbers ??= []).push({
          ...contact.identity,
          ...changedFields('PhonePreferences', changes),
        });
        break;
      case 'Addresses':
        (body.Addresses ??= []).push({
          ...contact.identity,
          ...changedFields('AddressPreferences', changes),
        });
        break;
    }
  }
  return body;
}

function containerOf(
  containers: Map<string, ContainerChanges>,
  contact: ContactRef,
): ContainerChanges {
  const key = JSON.stringify([contact.list, contact.identity]);
  let container = containers.get(key);
  if (!container) {
    container = { contact, preferences: [], consents: [] };
    containers.set(key, container);
  }
  return container;
}

/**
 * The changes of a submitted form against the page as the profile is now: a choice the
 * form showed and is ticked is an opt-in, one it showed and is not ticked an opt-out; a
 * shown consent ticked is Granted (1), unticked Revoked (3). Ids the page no longer has
 * (the profile changed meanwhile) are left out. With a Global Privacy Control signal
 * (`gpc`), an opt-in of a choice marked SaleOrShare needs the form's confirmation
 * (`gpcConfirm=1`): without an answer nothing is written and the choices are returned in
 * `needsConfirmation`; with it each such opt-in records OptInConfirmed; `gpcConfirm=0`
 * saves the rest and leaves them as they are.
 */
export function changesOfForm(
  page: CentrePage,
  form: CentreForm,
  signal: { gpc: boolean } = { gpc: false },
): CentreChanges {
  const shown = new Set(values(form, FIELD.shown));
  // "1": opt in to them anyway; "0": save the rest and leave them as they are.
  const answer = first(form, FIELD.gpcConfirm);
  const containers = new Map<string, ContainerChanges>();
  const needsConfirmation: CentreChoice[] = [];
  const asked: string[] = [];
  let preferences = 0;
  let consents = 0;
  for (const program of page.programs) {
    for (const choice of program.choices) {
      if (!shown.has(choice.id)) continue;
      const wanted = first(form, FIELD.optIn(choice.id)) !== undefined;
      const frequency = first(form, FIELD.frequency(choice.id));
      const frequencyId = choice.frequencies.find((f) => f.id === frequency)?.id;
      const frequencyChanged =
        wanted && frequencyId !== undefined && frequencyId !== choice.frequencyId;
      if (wanted === choice.optedIn && !frequencyChanged) continue;
      // Ticked while its confirmation is pending: the opt-in is asked for already (its link
      // was sent); asking again would change nothing.
      if (wanted && choice.awaitingConfirmation && !frequencyChanged) continue;
      const optsInToSale = signal.gpc && choice.saleOrShare && wanted && !choice.optedIn;
      if (optsInToSale && answer === '0') continue;
      if (optsInToSale && answer !== '1') needsConfirmation.push(choice);
      containerOf(containers, choice.contact).preferences.push(
        preferenceOf(
          choice,
          wanted,
          frequencyId ?? choice.frequencyId,
          optsInToSale ? GPC_VALUES.optInConfirmed : ownChangeMark(choice, wanted),
        ),
      );
      if (wanted && !choice.optedIn) asked.push(choice.id);
      preferences++;
    }
  }
  if (needsConfirmation.length)
    return { body: null, preferences: 0, consents: 0, needsConfirmation };
  const consentShown = new Set(values(form, FIELD.consentShown));
  for (const consent of page.consents) {
    if (!consentShown.has(consent.id)) continue;
    const wanted = first(form, FIELD.consent(consent.id)) !== undefined;
    // Ticked while its confirmation is pending: the grant is asked for already (its link
    // was sent); asking again would change nothing.
    if (wanted === consent.granted || (wanted && consent.awaitingConfirmation)) continue;
    containerOf(containers, consent.contact).consents.push(consentWrite(consent, wanted));
    if (wanted) asked.push(consent.id);
    consents++;
  }
  return {
    body: toBody(containers),
    preferences,
    consents,
    ...(asked.length ? { asked } : {}),
  };
}

function consentWrite(consent: CentreConsent, granted: boolean): ConsentDto {
  return {
    ConsentType: consent.typeName,
    ...(consent.version ? { ConsentVersion: consent.version } : {}),
    ConsentStatus: granted ? 1 : 3,
    SourceId: PREFERENCE_CENTRE_USER,
  };
}

/** Whether a choice is in an unsubscribe scope. */
export function inScope(choice: CentreChoice, scope: UnsubscribeScope): boolean {
  if (scope.kind === 'all') return true;
  if (choice.programId !== scope.programId) return false;
  if (scope.channel === undefined) return true;
  const channel = (value: string) => {
    const key = textKey(value);
    return key === 'sms' || key === 'text' ? 'text/sms' : key;
  };
  return channel(choice.channel) === channel(scope.channel);
}

/**
 * Unsubscribing (the page's "unsubscribe from everything", a one-click link): an opt-out
 * of every choice in the scope that is not an active opt-out already.
 */
export function changesOfUnsubscribe(page: CentrePage, scope: UnsubscribeScope): CentreChanges {
  const containers = new Map<string, ContainerChanges>();
  let preferences = 0;
  for (const program of page.programs) {
    for (const choice of program.choices) {
      if (!inScope(choice, scope)) continue;
      const current = choice.current;
      const optedOut =
        current !== undefined && current.IsActive !== false && current.PreferenceType === 2;
      // Nothing to withdraw where nothing is stored and an opt-out would need consents.
      if (optedOut || (!current && choice.requiredConsents.length)) continue;
      containerOf(containers, choice.contact).preferences.push(preferenceOf(choice, false));
      preferences++;
    }
  }
  return { body: toBody(containers), preferences, consents: 0 };
}

/**
 * The opt-out a Global Privacy Control signal asks for (docs/preference-centre.md, "Global
 * Privacy Control"): every choice of a program (or filter) marked SaleOrShare that is not
 * an opt-out already, except an opt-in the person confirmed while the signal was present
 * (OptInConfirmed), and except where nothing is stored and an opt-out would need what the
 * page cannot give (consents, attributes): nothing to withdraw there. Each opt-out carries
 * the attribute `$GlobalPrivacyControl: OptOut` and the SourceId GlobalPrivacyControl, so a
 * page view with the signal after it finds nothing to write: once per profile and signal,
 * and again only for what is newly marked (or newly opted in without that confirmation).
 */
export function changesOfGpc(page: CentrePage): CentreChanges {
  const containers = new Map<string, ContainerChanges>();
  let preferences = 0;
  for (const program of page.programs) {
    for (const choice of program.choices) {
      if (!needsGpcOptOut(choice)) continue;
      containerOf(containers, choice.contact).preferences.push(
        preferenceOf(choice, false, undefined, GPC_VALUES.optOut),
      );
      preferences++;
    }
  }
  return { body: toBody(containers), preferences, consents: 0 };
}

/** Whether the signal opts this choice out (see changesOfGpc). */
export function needsGpcOptOut(choice: CentreChoice): boolean {
  if (!choice.saleOrShare) return false;
  const current = choice.current;
  const active = current !== undefined && current.IsActive !== false;
  if (active && current.PreferenceType === 2) return false;
  if (active && current.PreferenceType === 1 && choice.gpc === GPC_VALUES.optInConfirmed)
    return false;
  if (!current && (choice.requiredConsents.length || choice.requiresAttributes)) return false;
  return true;
}
