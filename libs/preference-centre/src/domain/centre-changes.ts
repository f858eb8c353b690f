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
  preferences: Record<string, unknown>[];
  consents: Record<string, unknown>[];
}

export interface CentreChanges {
  /** The merge body, or null when nothing changes. */
  body: Record<string, unknown> | null;
  /** How many preferences and consents change. */
  preferences: number;
  consents: number;
}

/** Form field names: the choices and consents the page showed, and what is ticked. */
export const FIELD = {
  shown: 'shown',
  optIn: (id: string) => ['in', id].join('.'),
  frequency: (id: string) => ['freq', id].join('.'),
  consentShown: 'consentShown',
  consent: (id: string) => ['consent', id].join('.'),
  action: 'action',
} as const;

function values(form: CentreForm, name: string): string[] {
  const value = form[name];
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

function first(form: CentreForm, name: string): string | undefined {
  return values(form, name)[0];
}

function preferenceOf(choice: CentreChoice, optIn: boolean, frequencyId?: string) {
  return {
    ProgramId: String(choice.programId),
    ChannelId: choice.channel,
    FilterId: String(choice.filterId),
    PreferenceType: optIn ? 1 : 2,
    MatchType: 'Expressed',
    UserId: PREFERENCE_CENTRE_USER,
    SourceId: PREFERENCE_CENTRE_USER,
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

function toBody(containers: Map<string, ContainerChanges>): Record<string, unknown> | null {
  if (!containers.size) return null;
  const body: Record<string, unknown> = {};
  const lists: Record<string, Record<string, unknown>[]> = {};
  const nested: Record<string, string> = {
    Emails: 'EmailPreferences',
    PhoneNumbers: 'PhonePreferences',
    Addresses: 'AddressPreferences',
  };
  for (const { contact, preferences, consents } of containers.values()) {
    if (contact.list === 'Profile') {
      if (preferences.length) body.ProfilePreferences = preferences;
      if (consents.length) body.Consents = consents;
      continue;
    }
    (lists[contact.list] ??= []).push({
      ...contact.identity,
      ...(preferences.length ? { [nested[contact.list]]: preferences } : {}),
      ...(consents.length ? { Consents: consents } : {}),
    });
  }
  Object.assign(body, lists);
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
 * (the profile changed meanwhile) are left out.
 */
export function changesOfForm(page: CentrePage, form: CentreForm): CentreChanges {
  const shown = new Set(values(form, FIELD.shown));
  const containers = new Map<string, ContainerChanges>();
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
      containerOf(containers, choice.contact).preferences.push(
        preferenceOf(choice, wanted, frequencyId ?? choice.frequencyId),
      );
      preferences++;
    }
  }
  const consentShown = new Set(values(form, FIELD.consentShown));
  for (const consent of page.consents) {
    if (!consentShown.has(consent.id)) continue;
    const wanted = first(form, FIELD.consent(consent.id)) !== undefined;
    if (wanted === consent.granted) continue;
    containerOf(containers, consent.contact).consents.push(consentWrite(consent, wanted));
    consents++;
  }
  return { body: toBody(containers), preferences, consents };
}

function consentWrite(consent: CentreConsent, granted: boolean): Record<string, unknown> {
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
