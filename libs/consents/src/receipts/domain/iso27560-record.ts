import { ConsentStatus } from '@app/config';
import { collectionMethod, type ConsentFacts } from './consent-facts';

/*
 * An ISO/IEC TS 27560 consent record of one consent history entry, as JSON-LD with the W3C
 * Data Privacy Vocabulary (DPV 2), following the DPVCG's guide "Consent Records and
 * Receipts as per ISO/IEC TS 27560:2023 using DPV" and its profile
 * https://w3id.org/dpv/schema/dpv-27560#record (docs/receipts.md, "ISO/IEC TS 27560
 * record"). Pure code.
 */

export const DPV_27560_RECORD = 'https://w3id.org/dpv/schema/dpv-27560#record';

export const ISO27560_CONTEXT = {
  dpv: 'https://w3id.org/dpv#',
  pd: 'https://w3id.org/dpv/pd#',
  loc: 'https://w3id.org/dpv/loc#',
  dct: 'http://purl.org/dc/terms/',
  schema: 'https://schema.org/',
  rdf: 'http://www.w3.org/1999/02/22-rdf-syntax-ns#',
} as const;

/** The DPV consent states a record can hold (dpv:ConsentStatus subclasses). */
export type DpvConsentStatus =
  | 'dpv:ConsentGiven'
  | 'dpv:ConsentRefused'
  | 'dpv:ConsentWithdrawn'
  | 'dpv:ConsentRevoked'
  | 'dpv:ConsentExpired'
  | 'dpv:ConsentUnknown';

/** A node referred to by its IRI. */
export interface IriRef {
  '@id': string;
}

export interface Iso27560ConsentStatus {
  '@type': DpvConsentStatus;
  'dpv:isIndicatedAtTime': string;
  'dpv:isIndicatedBy': string;
  'dpv:hasIndicationMethod': string;
  'dpv:hasDuration':
    | { '@type': 'dpv:UntilTimeDuration'; 'rdf:value': string }
    | {
        '@type': 'dpv:EndlessDuration';
      };
}

export interface Iso27560Record {
  '@context': typeof ISO27560_CONTEXT;
  '@id': string;
  '@type': 'dpv:ConsentRecord';
  'dct:identifier': string;
  'dct:conformsTo': typeof DPV_27560_RECORD;
  'dct:created': string;
  'dct:publisher': IriRef;
  'dct:source': {
    '@id': string;
    'dct:identifier': string;
    'schema:sha256': string;
    'schema:position': number;
  };
  'dpv:hasDataSubject': { '@id': string; '@type': 'dpv:DataSubject'; 'dct:identifier': string };
  'dpv:hasDataController': IriRef;
  'dpv:hasJurisdiction'?: string;
  'dpv:hasNotice': {
    '@type': 'dpv:ConsentNotice';
    'dct:identifier': string;
    'dct:title': string;
    'dct:description'?: string;
    'dct:language': string;
    'dct:date'?: string;
    'schema:url'?: string;
  };
  'dpv:hasProcess': {
    '@type': 'dpv:Process';
    'dpv:hasPurpose': { '@type': 'dpv:Purpose'; 'dct:title': string; 'dct:description'?: string };
    'dpv:hasLegalBasis': 'dpv:Consent';
    'dpv:hasDataController': IriRef;
    'dpv:hasPersonalData'?: string;
  };
  'dpv:hasEntity': Array<{
    '@id': string;
    '@type': 'dpv:DataController';
    'dpv:hasName': string;
    'dpv:hasIdentifier': string;
  }>;
  'dpv:hasConsentStatus': Iso27560ConsentStatus;
}

/** IRIs of the service's own things (an unregistered `urn:pcp:` namespace; docs/receipts.md). */
export const pcpIri = {
  client: (clientId: string) => `urn:pcp:client:${encodeURIComponent(clientId)}`,
  profile: (clientId: string, profileId: number) =>
    `urn:pcp:client:${encodeURIComponent(clientId)}:profile:${profileId}`,
  entry: (clientId: string, profileId: number, entryId: string) =>
    `urn:pcp:client:${encodeURIComponent(clientId)}:profile:${profileId}:history:${entryId}`,
};

/** The personal data a contact element's consent is about (DPV-PD). */
const CONTAINER_DATA: Record<NonNullable<ConsentFacts['container']>['list'], string> = {
  Emails: 'pd:EmailAddress',
  PhoneNumbers: 'pd:TelephoneNumber',
  Addresses: 'pd:PhysicalAddress',
};

/**
 * The DPV state of the consent after the change: Expired and a deactivated consent first,
 * then by ConsentStatus (Granted: given; Denied: refused; Revoked: withdrawn by the person,
 * revoked when the service decided it, e.g. do-not-contact; NotSet: unknown).
 */
export function dpvConsentStatus(facts: ConsentFacts): DpvConsentStatus {
  if (facts.expired) return 'dpv:ConsentExpired';
  if (!facts.isActive) return 'dpv:ConsentRevoked';
  switch (facts.status) {
    case ConsentStatus.Granted:
      return 'dpv:ConsentGiven';
    case ConsentStatus.Denied:
      return 'dpv:ConsentRefused';
    case ConsentStatus.Revoked:
      return facts.byService ? 'dpv:ConsentRevoked' : 'dpv:ConsentWithdrawn';
    default:
      return 'dpv:ConsentUnknown';
  }
}

/** A jurisdiction attribute: a two-letter country code as a DPV-LOC concept, else as given. */
function jurisdiction(value: string | undefined): string | undefined {
  if (!value) return undefined;
  return /^[A-Za-z]{2}$/.test(value) ? `loc:${value.toUpperCase()}` : value;
}

/** The ISO/IEC TS 27560 consent record (JSON-LD, DPV) of a consent entry. */
export function iso27560Record(facts: ConsentFacts): Iso27560Record {
  const controller = pcpIri.client(facts.clientId);
  const status = dpvConsentStatus(facts);
  // The service decided it (expiry, do-not-contact, a deactivation), not the person.
  const byService =
    facts.byService || status === 'dpv:ConsentRevoked' || status === 'dpv:ConsentExpired';
  const at =
    status === 'dpv:ConsentExpired'
      ? (facts.expirationDate ?? facts.recordedAt)
      : facts.byService
        ? facts.recordedAt
        : facts.consentDate;
  const where = jurisdiction(facts.attributes.jurisdiction);
  return {
    '@context': ISO27560_CONTEXT,
    '@id': `urn:uuid:${facts.recordId}`,
    '@type': 'dpv:ConsentRecord',
    'dct:identifier': facts.recordId,
    'dct:conformsTo': DPV_27560_RECORD,
    'dct:created': facts.recordedAt,
    'dct:publisher': { '@id': controller },
    'dct:source': {
      '@id': pcpIri.entry(facts.clientId, facts.profileId, facts.entryId),
      'dct:identifier': facts.entryId,
      'schema:sha256': facts.entryHash,
      'schema:position': facts.chainPosition,
    },
    'dpv:hasDataSubject': {
      '@id': pcpIri.profile(facts.clientId, facts.profileId),
      '@type': 'dpv:DataSubject',
      'dct:identifier': String(facts.profileId),
    },
    'dpv:hasDataController': { '@id': controller },
    ...(where ? { 'dpv:hasJurisdiction': where } : {}),
    'dpv:hasNotice': {
      '@type': 'dpv:ConsentNotice',
      'dct:identifier': facts.consentVersion
        ? `${facts.consentType} ${facts.consentVersion}`
        : facts.consentType,
      'dct:title': facts.title,
      ...(facts.consentText ? { 'dct:description': facts.consentText } : {}),
      'dct:language': facts.language,
      ...(facts.versionPublished ? { 'dct:date': facts.versionPublished } : {}),
      ...(facts.attributes.policyUrl ? { 'schema:url': facts.attributes.policyUrl } : {}),
    },
    'dpv:hasProcess': {
      '@type': 'dpv:Process',
      'dpv:hasPurpose': {
        '@type': 'dpv:Purpose',
        'dct:title': facts.consentType,
        ...(facts.description ? { 'dct:description': facts.description } : {}),
      },
      'dpv:hasLegalBasis': 'dpv:Consent',
      'dpv:hasDataController': { '@id': controller },
      ...(facts.container ? { 'dpv:hasPersonalData': CONTAINER_DATA[facts.container.list] } : {}),
    },
    'dpv:hasEntity': [
      {
        '@id': controller,
        '@type': 'dpv:DataController',
        'dpv:hasName': facts.clientId,
        'dpv:hasIdentifier': facts.clientId,
      },
    ],
    'dpv:hasConsentStatus': {
      '@type': status,
      'dpv:isIndicatedAtTime': at,
      'dpv:isIndicatedBy': byService ? controller : 'dpv:DataSubject',
      'dpv:hasIndicationMethod': collectionMethod(facts),
      'dpv:hasDuration': facts.expirationDate
        ? { '@type': 'dpv:UntilTimeDuration', 'rdf:value': facts.expirationDate }
        : { '@type': 'dpv:EndlessDuration' },
    },
  };
}
