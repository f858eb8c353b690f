import { createHash } from 'node:crypto';
import { type ClientPresentation, ConsentStatus, type PresentationConsentType } from '@app/config';
import {
  type ContactIdentity,
  historyEntryId,
  type HistoryEntryOf,
  type ProfileHistory,
  type StoredConsent,
} from '@app/profiles';
import { textKey } from '@app/shared';

/*
 * What the standard receipts of one consent history entry say (docs/receipts.md, "Standard
 * receipts"): the facts the service holds about it, read once from the entry, the consent
 * type's configuration and the profile, so that the Kantara receipt and the ISO/IEC TS 27560
 * record are pure functions of the same typed data. Pure code.
 */

/** Consent type attributes (Key, case-insensitive) that fill fields the service does not hold. */
export const RECEIPT_ATTRIBUTES = {
  jurisdiction: 'Jurisdiction',
  policyUrl: 'PolicyUrl',
  purposeCategory: 'PurposeCategory',
  piiCategory: 'PiiCategory',
  termination: 'Termination',
  thirdPartyName: 'ThirdPartyName',
  sensitiveCategory: 'SensitiveCategory',
} as const;

type ReceiptAttribute = keyof typeof RECEIPT_ATTRIBUTES;

/** The language of a receipt when neither the consent, the profile nor the version names one. */
export const UNDETERMINED_LANGUAGE = 'und';

/** The writer of the bulk import: it carries the persons' own answers, as an API write does. */
const BULK_IMPORT_USER = 'system:bulk-import';

/**
 * A confirmed grant (double opt-in): the entry's evidence, from the person's mailbox or
 * stated by a bulk import's record (a confirmation made elsewhere).
 */
export interface ConsentConfirmationFacts {
  method: string;
  confirmedDate: string;
  /** The confirmation (link) id; a stated confirmation may have none. */
  linkId: string | null;
  ipAddress: string | null;
  userAgent: string | null;
  /** A stated confirmation's free text evidence. */
  evidence: string | null;
}

/** The contact element a consent is attached to (absent: the profile's own consent). */
export interface ConsentContainerFacts {
  list: 'Emails' | 'PhoneNumbers' | 'Addresses';
  fields: ContactIdentity;
}

export interface ConsentFacts {
  clientId: string;
  profileId: number;
  /** `<seq>.<n>` */
  entryId: string;
  /** The entry's hash in the profile's chain (SHA-256, hex) and its place in it, from 1. */
  entryHash: string;
  chainPosition: number;
  /** A UUID derived from the entry's hash: the same entry always has the same record id. */
  recordId: string;
  consentType: string;
  consentVersion: string | null;
  status: ConsentStatus;
  isActive: boolean;
  expired: boolean;
  /** When the person answered (ConsentDate), else when the write was accepted (ISO 8601). */
  consentDate: string;
  /** When the service recorded the change (the write's acceptance time). */
  recordedAt: string;
  expirationDate: string | null;
  /** The consent's SourceId, as the writer gave it. */
  sourceId: string | null;
  reasonCode: string | null;
  /** The API user (or system writer) that recorded the change. */
  recordedBy: string | null;
  /** True when the service itself decided the change (expiry, do-not-contact, versions). */
  byService: boolean;
  container: ConsentContainerFacts | null;
  /** The double opt-in evidence of a grant it confirmed (docs/double-opt-in.md, "Evidence"). */
  confirmation: ConsentConfirmationFacts | null;
  /** BCP 47 tag: the consent's Locale, the profile's DefaultLocale, the version's first locale. */
  language: string;
  /** The consent type's name, description and the version's text, in `language` when it has one. */
  title: string;
  description: string | null;
  consentText: string | null;
  versionPublished: string | null;
  attributes: Partial<Record<ReceiptAttribute, string>>;
}

/** What the facts need of a consent type's configuration. */
export interface ConsentTypeAttributes {
  TypeName: string;
  Attributes: { Key: string; Value?: string }[];
}

/** What the handler read, besides the entry. */
export interface ConsentFactsSources {
  clientId: string;
  profileId: number;
  entry: HistoryEntryOf<StoredConsent>;
  chainPosition: number;
  /** The consent type now (by its current or a former name), with its attributes. */
  consentType: ConsentTypeAttributes | undefined;
  presentation: PresentationConsentType | undefined;
  profileLocale: string | undefined;
}

const text = (value: unknown): string | null =>
  typeof value === 'string' && value.trim() !== '' ? value : null;

/** A UUID (RFC 9562 version 8, custom) made of the first 122 bits of SHA-256 of `seed`. */
export function uuidFromHash(seed: string): string {
  const bytes = createHash('sha256').update(seed, 'utf8').digest().subarray(0, 16);
  bytes[6] = (bytes[6] & 0x0f) | 0x80;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The localised texts whose locale is `language`, else its primary subtag, else the first. */
function pick<T extends { Locale: string }>(fields: readonly T[], language: string): T | undefined {
  const key = textKey(language);
  const primary = key.split('-')[0];
  return (
    fields.find((field) => textKey(field.Locale) === key) ??
    fields.find((field) => textKey(field.Locale).split('-')[0] === primary) ??
    fields[0]
  );
}

/** The facts of a consent entry (category `consent`), from the entry and the configuration. */
export function consentFacts(sources: ConsentFactsSources): ConsentFacts {
  const { entry, presentation, consentType: type } = sources;
  const snapshot = entry.snapshot;
  const consentType = text(snapshot.ConsentType) ?? '';
  const consentVersion = text(snapshot.ConsentVersion);
  const version = presentation?.Versions.find(
    (candidate) =>
      consentVersion !== null && textKey(candidate.ConsentVersion) === textKey(consentVersion),
  );
  const language =
    text(snapshot.Locale) ??
    text(sources.profileLocale) ??
    version?.LocalizedFields[0]?.Locale ??
    presentation?.LocalizedFields[0]?.Locale ??
    UNDETERMINED_LANGUAGE;
  const versionTexts = pick(version?.LocalizedFields ?? [], language);
  const typeTexts = pick(presentation?.LocalizedFields ?? [], language);
  const recordedBy = text(snapshot.Edited?.ModifiedBy);
  const attributes: ConsentFacts['attributes'] = {};
  for (const [name, key] of Object.entries(RECEIPT_ATTRIBUTES) as [ReceiptAttribute, string][]) {
    const found = type?.Attributes.find((attribute) => textKey(attribute.Key) === textKey(key));
    const value = text(found?.Value);
    if (value !== null) attributes[name] = value.trim();
  }
  const status = Number(snapshot.ConsentStatus);
  const evidence = snapshot.Confirmation;
  const confirmedDate = text(evidence?.ConfirmedDate);
  const linkId = text(evidence?.LinkId);
  // The evidence stays with the consent after a revocation: it names how the grant came.
  const confirmation: ConsentConfirmationFacts | null =
    status === Number(ConsentStatus.Granted) && confirmedDate
      ? {
          method: text(evidence?.Method) ?? 'DoubleOptIn',
          confirmedDate,
          linkId,
          ipAddress: text(evidence?.IpAddress),
          userAgent: text(evidence?.UserAgent),
          evidence: text(evidence?.Evidence),
        }
      : null;
  return {
    clientId: sources.clientId,
    profileId: sources.profileId,
    entryId: historyEntryId(entry),
    entryHash: entry.hash!,
    chainPosition: sources.chainPosition,
    recordId: uuidFromHash(`consent-record:${entry.hash!}`),
    consentType: type?.TypeName ?? consentType,
    consentVersion,
    status: ConsentStatus[status] === undefined ? ConsentStatus.NotSet : (status as ConsentStatus),
    isActive: snapshot.IsActive !== false,
    expired: snapshot.Expired === true,
    consentDate: text(snapshot.ConsentDate) ?? entry.modifiedAt,
    recordedAt: entry.modifiedAt,
    expirationDate: text(snapshot.ExpirationDate),
    sourceId: text(snapshot.SourceId),
    reasonCode: text(snapshot.ReasonCode),
    recordedBy,
    byService:
      recordedBy !== null && recordedBy.startsWith('system:') && recordedBy !== BULK_IMPORT_USER,
    container: entry.container
      ? { list: entry.container.list, fields: entry.container.fields }
      : null,
    confirmation,
    language,
    title: versionTexts?.Name ?? typeTexts?.Name ?? type?.TypeName ?? consentType,
    description: text(versionTexts?.Description) ?? text(typeTexts?.Description),
    consentText: text(versionTexts?.ConsentLanguage),
    versionPublished: version?.PublishedDate ?? null,
    attributes,
  };
}

/**
 * A grant confirmed by double opt-in names it with its evidence; else what the writer named
 * as the source, else the write's path: the Profiles API.
 */
export function collectionMethod(facts: ConsentFacts): string {
  const confirmation = facts.confirmation;
  if (confirmation) {
    const request = [confirmation.ipAddress, confirmation.userAgent].filter(Boolean).join(', ');
    const details = [
      confirmation.linkId ? `confirmation ${confirmation.linkId}` : '',
      request ? `request from ${request}` : '',
      confirmation.evidence ? `evidence: ${confirmation.evidence}` : '',
    ].filter(Boolean);
    // A double opt-in is a confirmation from the mailbox, whichever system sent the link (this
    // one, or another as a bulk import's record states); another method is named as it is.
    const where =
      confirmation.method === 'DoubleOptIn' ? "confirmed from the person's mailbox" : 'confirmed';
    return `${confirmation.method}: ${where} at ${confirmation.confirmedDate}${details.length ? ` (${details.join('; ')})` : ''}`;
  }
  if (facts.sourceId) return facts.sourceId;
  if (facts.byService) return `recorded by the service (${facts.recordedBy})`;
  return 'Profiles API';
}

/** The consent type called `name` (now or before a rename) with its display texts. */
export function presentedConsentType(
  presentation: ClientPresentation,
  name: unknown,
): PresentationConsentType | undefined {
  if (typeof name !== 'string') return undefined;
  const key = textKey(name);
  return (
    presentation.consentTypes.find((type) => textKey(type.TypeName) === key) ??
    presentation.consentTypes.find((type) =>
      type.FormerNames.some((former) => textKey(former) === key),
    )
  );
}

/** Whether a history entry can have standard receipts: a chained consent entry. */
export function isConsentEntry(entry: ProfileHistory): entry is HistoryEntryOf<StoredConsent> {
  // The consent category's entries hold a consent (libs/consents records them).
  return entry.category === 'consent' && typeof entry.hash === 'string';
}
