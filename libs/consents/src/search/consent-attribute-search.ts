import { textKey } from '@app/shared';
import {
  type AttributePair,
  canSeeConsentType,
  type ProfileData,
  type ProfileSearchRule,
  type StoredConsent,
} from '@app/profiles';
import { activeConsentLists } from '../domain/consent-containers';

/**
 * Profiles holding a consent of a type that carries every listed attribute. Attributes
 * belong to consent types (configuration), so the search first resolves them to the
 * normalised names of the types carrying them all (`consentTypeKeys`).
 */
export interface ConsentAttributeSearch {
  kind: 'consentAttributes';
  attributes: AttributePair[];
  consentTypeKeys?: string[];
}

/** Where consents are stored: on the profile and on each kind of contact element. */
const CONSENT_KEY_PATHS = [
  'data.Consents.Key',
  'data.Emails.Consents.Key',
  'data.PhoneNumbers.Consents.Key',
  'data.Addresses.Consents.Key',
];

const consentKey = (consent: StoredConsent) => consent.Key || textKey(consent.ConsentType);

/** The search keys of a profile's consents (every container, active or not). */
export function* consentSearchKeys(data: ProfileData): Iterable<string> {
  const lists = [
    data.Consents,
    ...[...(data.Emails ?? []), ...(data.PhoneNumbers ?? []), ...(data.Addresses ?? [])].map(
      (element) => element.Consents,
    ),
  ];
  for (const consent of lists.flatMap((list) => list ?? [])) yield `consent:${consentKey(consent)}`;
}

export const CONSENT_ATTRIBUTE_SEARCH: ProfileSearchRule<ConsentAttributeSearch> = {
  kind: 'consentAttributes',
  resolve: (criteria, vocabulary) => {
    const names = vocabulary.consentTypesWithAttributes(criteria.attributes);
    if (!names.length) return undefined;
    return { ...criteria, consentTypeKeys: names.map((name) => textKey(name)) };
  },
  keyQuery: (criteria) => [(criteria.consentTypeKeys ?? []).map((key) => `consent:${key}`)],
  candidateConditions: (criteria) => [
    { $or: CONSENT_KEY_PATHS.map((path) => ({ [path]: { $in: criteria.consentTypeKeys ?? [] } })) },
  ],
  matches: (data, criteria, view) => {
    const keys = new Set(criteria.consentTypeKeys);
    return activeConsentLists(data).some((list) =>
      (list ?? []).some(
        (consent) =>
          consent.IsActive !== false &&
          keys.has(consentKey(consent)) &&
          canSeeConsentType(view, consent.ConsentType),
      ),
    );
  },
};
