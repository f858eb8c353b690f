import { ConsentStatus } from '@app/config';
import { collectionMethod, type ConsentFacts } from './consent-facts';

/*
 * A Kantara Initiative Consent Receipt Specification v1.1.0 document of one consent history
 * entry (docs/receipts.md, "Kantara Consent Receipt v1.1"): every required field present,
 * filled from what the service holds, the rest empty as the document names. The JWS of it
 * is its JWT (the specification's signed form). Pure code.
 */

export const KANTARA_VERSION = 'KI-CR-v1.1.0';

/** A postal address (the specification's address object); empty: the service holds none. */
export type KantaraAddress = Record<string, string>;

export interface KantaraController {
  piiController: string;
  contact: string;
  address: KantaraAddress;
  email: string;
  phone: string;
}

export interface KantaraPurpose {
  purpose: string;
  purposeCategory: string[];
  consentType: 'EXPLICIT';
  piiCategory: string[];
  primaryPurpose: boolean;
  termination: string;
  thirdPartyDisclosure: boolean;
  thirdPartyName?: string;
}

export interface KantaraService {
  service: string;
  purposes: KantaraPurpose[];
}

/**
 * What the service adds (a JWT's private claim): the consent's state, which the Kantara
 * fields cannot say, and the entry in the profile's hash chain the receipt stands for.
 */
export interface KantaraServiceClaim {
  consentStatus: 'Granted' | 'Denied' | 'Revoked' | 'NotSet';
  consentVersion: string | null;
  isActive: boolean;
  expired: boolean;
  expirationDate: string | null;
  profileId: number;
  entryId: string;
  entryHash: string;
  chainPosition: number;
}

export interface KantaraReceipt {
  version: typeof KANTARA_VERSION;
  jurisdiction: string;
  /** Seconds since 1970-01-01T00:00:00Z. */
  consentTimestamp: number;
  collectionMethod: string;
  consentReceiptID: string;
  language: string;
  piiPrincipalId: string;
  piiControllers: KantaraController[];
  policyUrl: string;
  services: KantaraService[];
  sensitive: boolean;
  spiCat: string[];
  /** JWT issued-at (seconds): when the service signed this copy. */
  iat: number;
  pcp: KantaraServiceClaim;
}

/** The name of the claim holding what the service adds. */
export const KANTARA_SERVICE_CLAIM = 'pcp';

const seconds = (iso: string) => Math.floor(Date.parse(iso) / 1000);

/** The Kantara Consent Receipt v1.1.0 of a consent entry, issued at `issuedAt`. */
export function kantaraReceipt(facts: ConsentFacts, issuedAt: Date): KantaraReceipt {
  const { attributes } = facts;
  const purpose: KantaraPurpose = {
    purpose: facts.consentText ?? facts.description ?? facts.title,
    purposeCategory: attributes.purposeCategory ? [attributes.purposeCategory] : [],
    consentType: 'EXPLICIT',
    piiCategory: attributes.piiCategory ? [attributes.piiCategory] : [],
    primaryPurpose: true,
    termination: facts.expirationDate ?? attributes.termination ?? '',
    thirdPartyDisclosure: attributes.thirdPartyName !== undefined,
    ...(attributes.thirdPartyName ? { thirdPartyName: attributes.thirdPartyName } : {}),
  };
  return {
    version: KANTARA_VERSION,
    jurisdiction: attributes.jurisdiction ?? '',
    consentTimestamp: seconds(facts.consentDate),
    collectionMethod: collectionMethod(facts),
    consentReceiptID: facts.recordId,
    language: facts.language,
    piiPrincipalId: String(facts.profileId),
    piiControllers: [
      { piiController: facts.clientId, contact: '', address: {}, email: '', phone: '' },
    ],
    policyUrl: attributes.policyUrl ?? '',
    services: [
      {
        service: facts.consentType,
        purposes: [purpose],
      },
    ],
    sensitive: attributes.sensitiveCategory !== undefined,
    spiCat: attributes.sensitiveCategory ? [attributes.sensitiveCategory] : [],
    iat: Math.floor(issuedAt.getTime() / 1000),
    [KANTARA_SERVICE_CLAIM]: {
      consentStatus: ConsentStatus[facts.status] as KantaraServiceClaim['consentStatus'],
      consentVersion: facts.consentVersion,
      isActive: facts.isActive,
      expired: facts.expired,
      expirationDate: facts.expirationDate,
      profileId: facts.profileId,
      entryId: facts.entryId,
      entryHash: facts.entryHash,
      chainPosition: facts.chainPosition,
    },
  };
}
