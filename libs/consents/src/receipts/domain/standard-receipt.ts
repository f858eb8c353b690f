import { CompactSign, type CompactJWSHeaderParameters } from 'jose';
import type { Iso27560Record } from './iso27560-record';
import type { KantaraReceipt } from './kantara-receipt';
import type { ReceiptSigningKey } from './receipt';

/*
 * The standard receipts of a consent entry (docs/receipts.md, "Standard receipts"): a Kantara
 * Consent Receipt v1.1.0 and an ISO/IEC TS 27560 record, each signed as a compact JWS
 * (RFC 7515) with EdDSA (Ed25519, RFC 8037) by the receipt key, its `kid` the key's id in the
 * served key set (GET /Profiles/v4/ReceiptKeys).
 */

export const STANDARD_RECEIPT_FORMATS = ['Kantara', 'ISO27560'] as const;
export type StandardReceiptFormat = (typeof STANDARD_RECEIPT_FORMATS)[number];

/** A signed standard receipt: the document and its compact JWS (whose payload it is). */
export type StandardReceipt = {
  entryId: string;
  keyId: string;
  issuedAt: string;
  jws: string;
} & (
  { format: 'Kantara'; document: KantaraReceipt } | { format: 'ISO27560'; document: Iso27560Record }
);

/** What each format's JWS header says of its payload. */
const HEADERS: Record<StandardReceiptFormat, Omit<CompactJWSHeaderParameters, 'alg' | 'kid'>> = {
  // The Kantara specification's signed form is a JWT whose claims are the receipt.
  Kantara: { typ: 'JWT' },
  // JSON-LD (RFC 7515 4.1.10: "application/" left out).
  ISO27560: { cty: 'ld+json' },
};

/** The JWS protected header of a format's receipt signed with `key`. */
export function standardReceiptHeader(
  format: StandardReceiptFormat,
  key: ReceiptSigningKey,
): CompactJWSHeaderParameters {
  return { alg: 'EdDSA', kid: key.jwk.kid, ...HEADERS[format] };
}

/** The compact JWS of `document` (its JSON, UTF-8, as the payload). */
export function signStandardReceipt(
  format: StandardReceiptFormat,
  document: object,
  key: ReceiptSigningKey,
): Promise<string> {
  return new CompactSign(Buffer.from(JSON.stringify(document), 'utf8'))
    .setProtectedHeader(standardReceiptHeader(format, key))
    .sign(key.privateKey);
}
