import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { KANTARA_VERSION } from '../domain/kantara-receipt';
import { DPV_27560_RECORD } from '../domain/iso27560-record';

/*
 * The standard receipts of a consent entry as answered (docs/receipts.md, "Standard
 * receipts"): the document, its compact JWS and the key that signed it. The documents keep
 * their standards' field names (camelCase, JSON-LD terms): they are what the JWS signs.
 */

const JWS_DESCRIPTION =
  "Compact JWS (RFC 7515) of the document: BASE64URL(header).BASE64URL(payload).BASE64URL(signature), EdDSA (Ed25519), the header's kid the key's id in GET /Profiles/v4/ReceiptKeys. The payload is the document's JSON (UTF-8): verify the JWS against the pinned key set and read the document from its payload, not from the answer beside it";

class StandardReceiptAnswerDto {
  @ApiProperty({ example: '3.1', description: 'The history entry: <seq>.<n>' }) EntryId: string;
  @ApiProperty({
    example: 'kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k',
    description:
      "The signing key's id (kid of GET /Profiles/v4/ReceiptKeys, and of the JWS header)",
  })
  KeyId: string;
  @ApiProperty({ format: 'date-time', description: 'When the service signed it' })
  IssuedAt: string;
  @ApiProperty({
    description: JWS_DESCRIPTION,
    example: 'eyJhbGciOiJFZERTQSIsImtpZCI6Ii4uLiJ9.eyIuLi4iOiIuLi4ifQ.c2ln',
  })
  Jws: string;
}

export class KantaraControllerDto {
  @ApiProperty({ example: 'acme', description: 'The client (tenant) id: the controller' })
  piiController: string;
  @ApiProperty({ example: '', description: 'Empty: the service holds no contact of the client' })
  contact: string;
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'string' },
    example: {},
    description: 'Empty: the service holds no address of the client',
  })
  address: Record<string, string>;
  @ApiProperty({ example: '', description: 'Empty: the service holds no email of the client' })
  email: string;
  @ApiProperty({ example: '', description: 'Empty: the service holds no phone of the client' })
  phone: string;
}

export class KantaraPurposeDto {
  @ApiProperty({
    description:
      "The version's consent text in the receipt's language, else its description, else its name",
  })
  purpose: string;
  @ApiProperty({
    type: [String],
    description: 'The consent type attribute PurposeCategory, else empty',
  })
  purposeCategory: string[];
  @ApiProperty({ enum: ['EXPLICIT'], description: "The person's recorded answer" })
  consentType: 'EXPLICIT';
  @ApiProperty({
    type: [String],
    description: 'The consent type attribute PiiCategory, else empty',
  })
  piiCategory: string[];
  @ApiProperty({ description: 'true: each receipt holds one purpose, the consent type' })
  primaryPurpose: boolean;
  @ApiProperty({
    description:
      "The consent's ExpirationDate, else the consent type attribute Termination, else empty",
  })
  termination: string;
  @ApiProperty({ description: 'true when the consent type has the attribute ThirdPartyName' })
  thirdPartyDisclosure: boolean;
  @ApiPropertyOptional({ description: 'The consent type attribute ThirdPartyName' })
  thirdPartyName?: string;
}

export class KantaraServiceDto {
  @ApiProperty({ example: 'Terms', description: "The consent type's name" }) service: string;
  @ApiProperty({ type: [KantaraPurposeDto] }) purposes: KantaraPurposeDto[];
}

export class KantaraServiceClaimDto {
  @ApiProperty({
    enum: ['Granted', 'Denied', 'Revoked', 'NotSet'],
    description: 'The ConsentStatus by name: Granted (1), Denied (2), Revoked (3), NotSet (4)',
  })
  consentStatus: 'Granted' | 'Denied' | 'Revoked' | 'NotSet';
  @ApiProperty({ type: String, nullable: true, example: '1.0' }) consentVersion: string | null;
  @ApiProperty({ description: 'false: the consent was deactivated by the change' })
  isActive: boolean;
  @ApiProperty() expired: boolean;
  @ApiProperty({ type: String, nullable: true, format: 'date-time' })
  expirationDate: string | null;
  @ApiProperty({ example: 7 }) profileId: number;
  @ApiProperty({ example: '3.1' }) entryId: string;
  @ApiProperty({ description: "The entry's hash in the profile's chain (SHA-256, hex)" })
  entryHash: string;
  @ApiProperty({ example: 4, description: "The entry's place in the chain, from 1" })
  chainPosition: number;
}

/** A Kantara Initiative Consent Receipt v1.1.0 (its JSON; the JWS payload). */
export class KantaraReceiptDto {
  @ApiProperty({ enum: [KANTARA_VERSION] }) version: typeof KANTARA_VERSION;
  @ApiProperty({
    example: 'IE',
    description: 'The consent type attribute Jurisdiction, else empty',
  })
  jurisdiction: string;
  @ApiProperty({
    example: 1767225600,
    description:
      'Seconds since 1970-01-01T00:00:00Z: the ConsentDate, else when the write was accepted',
  })
  consentTimestamp: number;
  @ApiProperty({
    example: 'Profiles API',
    description:
      "A grant confirmed by double opt-in: DoubleOptIn with its evidence (confirmation time, confirmation id, the confirming request's address and user agent); else the consent's SourceId, else the writer (Profiles API, or the service's own job)",
  })
  collectionMethod: string;
  @ApiProperty({
    format: 'uuid',
    description: "A UUID derived from the entry's hash: the same entry always has the same id",
  })
  consentReceiptID: string;
  @ApiProperty({
    example: 'en-us',
    description:
      "The consent's Locale, else the profile's DefaultLocale, else the version's first locale, else und",
  })
  language: string;
  @ApiProperty({ example: '7', description: 'The ProfileId' }) piiPrincipalId: string;
  @ApiProperty({ type: [KantaraControllerDto] }) piiControllers: KantaraControllerDto[];
  @ApiProperty({ description: 'The consent type attribute PolicyUrl, else empty' })
  policyUrl: string;
  @ApiProperty({ type: [KantaraServiceDto] }) services: KantaraServiceDto[];
  @ApiProperty({ description: 'true when the consent type has the attribute SensitiveCategory' })
  sensitive: boolean;
  @ApiProperty({
    type: [String],
    description: 'The consent type attribute SensitiveCategory, else empty',
  })
  spiCat: string[];
  @ApiProperty({ description: 'JWT issued-at: when this copy was signed (seconds)' }) iat: number;
  @ApiProperty({
    type: KantaraServiceClaimDto,
    description:
      "The service's claim: the consent's state (Kantara has no field for it) and the chain entry",
  })
  pcp: KantaraServiceClaimDto;
}

export class KantaraReceiptAnswerDto extends StandardReceiptAnswerDto {
  @ApiProperty({ enum: ['Kantara'] }) Format: 'Kantara';
  @ApiProperty({
    type: KantaraReceiptDto,
    description: 'The receipt as signed: the JWS payload (a JWT claims set), decoded',
  })
  Receipt: KantaraReceiptDto;
}

const JSON_LD_NODE = {
  type: 'object',
  additionalProperties: true,
} as const;

/** An ISO/IEC TS 27560 consent record, JSON-LD with DPV terms (the JWS payload). */
export class Iso27560RecordDto {
  @ApiProperty({ ...JSON_LD_NODE, description: 'Prefixes: dpv, pd, loc, dct, schema, rdf' })
  '@context': Record<string, string>;
  @ApiProperty({ example: 'urn:uuid:5b1c7f0e-2a3d-8c4e-9f10-1a2b3c4d5e6f' }) '@id': string;
  @ApiProperty({ enum: ['dpv:ConsentRecord'] }) '@type': 'dpv:ConsentRecord';
  @ApiProperty({ format: 'uuid', description: "The record id, derived from the entry's hash" })
  'dct:identifier': string;
  @ApiProperty({ enum: [DPV_27560_RECORD] }) 'dct:conformsTo': string;
  @ApiProperty({ format: 'date-time', description: 'When the service recorded the change' })
  'dct:created': string;
  @ApiProperty({ ...JSON_LD_NODE, description: 'The controller (the client)' })
  'dct:publisher': Record<string, unknown>;
  @ApiProperty({
    ...JSON_LD_NODE,
    description:
      'The history entry it records: its IRI, EntryId, hash (schema:sha256) and chain position',
  })
  'dct:source': Record<string, unknown>;
  @ApiProperty({ ...JSON_LD_NODE, description: 'The profile (dct:identifier: its ProfileId)' })
  'dpv:hasDataSubject': Record<string, unknown>;
  @ApiProperty(JSON_LD_NODE) 'dpv:hasDataController': Record<string, unknown>;
  @ApiPropertyOptional({
    example: 'loc:IE',
    description: 'The consent type attribute Jurisdiction',
  })
  'dpv:hasJurisdiction'?: string;
  @ApiProperty({
    ...JSON_LD_NODE,
    description: 'The consent type and version shown: title, text, language, publication date',
  })
  'dpv:hasNotice': Record<string, unknown>;
  @ApiProperty({ ...JSON_LD_NODE, description: 'Purpose (the consent type), legal basis, data' })
  'dpv:hasProcess': Record<string, unknown>;
  @ApiProperty({ type: 'array', items: JSON_LD_NODE, description: 'The controller as an entity' })
  'dpv:hasEntity': Record<string, unknown>[];
  @ApiProperty({
    ...JSON_LD_NODE,
    description:
      "The consent's state after the change: @type dpv:ConsentGiven, dpv:ConsentRefused, dpv:ConsentWithdrawn, dpv:ConsentRevoked, dpv:ConsentExpired or dpv:ConsentUnknown; when, by whom, how, until when",
  })
  'dpv:hasConsentStatus': Record<string, unknown>;
}

export class Iso27560RecordAnswerDto extends StandardReceiptAnswerDto {
  @ApiProperty({ enum: ['ISO27560'] }) Format: 'ISO27560';
  @ApiProperty({
    type: Iso27560RecordDto,
    description: 'The record as signed: the JWS payload, decoded',
  })
  Record: Iso27560RecordDto;
}
