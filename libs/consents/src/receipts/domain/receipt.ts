import canonicalize from 'canonicalize';
import {
  createHash,
  createPrivateKey,
  createPublicKey,
  type KeyObject,
  sign,
  verify,
} from 'node:crypto';
import {
  CHAIN_HASH_ALGORITHM,
  historyEntryHash,
  historyEntryId,
  type ProfileHistory,
} from '@app/profiles';

/*
 * Consent receipts (docs/receipts.md): a signed statement that one history entry of a
 * profile's hash chain is what the service recorded, with what a verifier needs to
 * recompute the chain from its start to that entry offline. Pure functions: building,
 * signing and verifying a receipt, and the Ed25519 keys as JWKs. scripts/verify-receipt.js
 * implements the same checks in plain JavaScript.
 */

export const RECEIPT_VERSION = 1;
export const SIGNATURE_ALGORITHM = 'Ed25519';
export const CANONICALIZATION = 'RFC8785';

/** The signed part of a receipt: the Ed25519 signature covers its canonical JSON. */
export interface ReceiptStatement {
  Version: number;
  ClientId: string;
  ProfileId: number;
  /** `<seq>.<n>`: the write's sequence number and the entry's index within it. */
  EntryId: string;
  Category: string;
  /** The entry's `hash` (which covers its prevHash, and so the whole chain before it). */
  EntryHash: string;
  /** The entry's place in the chain, from 1. */
  ChainPosition: number;
  HashAlgorithm: string;
  Canonicalization: string;
  IssuedAt: string;
  SignatureAlgorithm: string;
  KeyId: string;
}

/** An earlier chained entry the caller's user group may not see: its links only. */
export interface RedactedProofEntry {
  seq: number;
  n: number;
  category: string;
  prevHash: string | null;
  hash: string;
  redacted: true;
}

export type ProofEntry = ProfileHistory | RedactedProofEntry;

/** A public key as a JWK (RFC 8037, OKP / Ed25519), with its key id. */
export interface ReceiptPublicJwk {
  kty: 'OKP';
  crv: 'Ed25519';
  x: string;
  kid: string;
  alg: 'EdDSA';
  use: 'sig';
}

export interface ConsentReceipt {
  Receipt: ReceiptStatement;
  /** base64url Ed25519 signature over the canonical JSON (RFC 8785) of Receipt. */
  Signature: string;
  /** The entry exactly as stored (the hashed form). */
  Entry: ProfileHistory;
  /** The chained entries before it, oldest first (each as stored, or redacted). */
  Proof: ProofEntry[];
  /** The signing key, for convenience: pin it from GET /Profiles/v4/ReceiptKeys instead. */
  PublicKey: ReceiptPublicJwk;
}

/** The service's signing key, with its public JWK. */
export interface ReceiptSigningKey {
  privateKey: KeyObject;
  jwk: ReceiptPublicJwk;
}

/**
 * A PKCS#8 private key, PEM or base64 of its DER, that must be Ed25519 (the setting
 * RECEIPT_SIGNING_KEY, or a stored generated key). Throws with what is wrong.
 */
export function parseSigningKey(text: string): ReceiptSigningKey {
  // A PEM kept in an environment file often has its line breaks written as \n.
  const trimmed = text.trim().replace(/\\n/g, '\n');
  let privateKey: KeyObject;
  try {
    privateKey = trimmed.includes('-----BEGIN')
      ? createPrivateKey({ key: trimmed, format: 'pem' })
      : createPrivateKey({ key: Buffer.from(trimmed, 'base64'), format: 'der', type: 'pkcs8' });
  } catch (error) {
    throw new Error(
      `not a PKCS#8 private key (PEM, or base64 of DER): ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  if (privateKey.asymmetricKeyType !== 'ed25519') {
    throw new Error(`an Ed25519 key is required, not ${privateKey.asymmetricKeyType}`);
  }
  return { privateKey, jwk: publicJwkOf(createPublicKey(privateKey)) };
}

/** The public JWK of an Ed25519 key, its kid the RFC 7638 thumbprint (base64url SHA-256). */
export function publicJwkOf(publicKey: KeyObject): ReceiptPublicJwk {
  const { x } = publicKey.export({ format: 'jwk' }) as { x: string };
  const thumbprint = createHash('sha256')
    .update(canonicalize({ crv: 'Ed25519', kty: 'OKP', x })!, 'utf8')
    .digest('base64url');
  return { kty: 'OKP', crv: 'Ed25519', x, kid: thumbprint, alg: 'EdDSA', use: 'sig' };
}

/** A public key from its JWK. */
export function publicKeyOf(jwk: { kty: string; crv: string; x: string }): KeyObject {
  return createPublicKey({ key: { kty: jwk.kty, crv: jwk.crv, x: jwk.x }, format: 'jwk' });
}

/** The bytes signed: the canonical JSON (RFC 8785) of the statement, UTF-8. */
export function signingInput(statement: ReceiptStatement): Buffer {
  return Buffer.from(canonicalize(statement)!, 'utf8');
}

/** The proof form of an earlier chained entry: as stored, or its links only. */
export function proofEntry(entry: ProfileHistory, visible: boolean): ProofEntry {
  if (visible) return entry;
  return {
    seq: entry.seq,
    n: entry.n,
    category: entry.category,
    prevHash: entry.prevHash ?? null,
    hash: entry.hash!,
    redacted: true,
  };
}

/**
 * The receipt of `entry`, the chain's `earlier` entries before it (oldest first, in proof
 * form), signed now with `key`.
 */
export function issueReceipt(input: {
  clientId: string;
  profileId: number;
  entry: ProfileHistory;
  earlier: ProofEntry[];
  issuedAt: Date;
  key: ReceiptSigningKey;
}): ConsentReceipt {
  const { entry, key } = input;
  const Receipt: ReceiptStatement = {
    Version: RECEIPT_VERSION,
    ClientId: input.clientId,
    ProfileId: input.profileId,
    EntryId: historyEntryId(entry),
    Category: entry.category,
    EntryHash: entry.hash!,
    ChainPosition: input.earlier.length + 1,
    HashAlgorithm: CHAIN_HASH_ALGORITHM,
    Canonicalization: CANONICALIZATION,
    IssuedAt: input.issuedAt.toISOString(),
    SignatureAlgorithm: SIGNATURE_ALGORITHM,
    KeyId: key.jwk.kid,
  };
  const Signature = sign(null, signingInput(Receipt), key.privateKey).toString('base64url');
  return { Receipt, Signature, Entry: entry, Proof: input.earlier, PublicKey: key.jwk };
}

/**
 * What is wrong with a receipt (empty: it verifies), against the public keys the verifier
 * trusts (the receipt's KeyId must be one of them): the signature over the statement; the
 * statement against the entry (client, profile, id, category, hash); the entry's content
 * hash; the proof's chain from null to the entry's prevHash (each stored entry's content
 * hash, each link).
 */
export function receiptProblems(
  receipt: ConsentReceipt,
  trusted: readonly ReceiptPublicJwk[],
): string[] {
  const problems: string[] = [];
  const { Receipt: statement, Entry: entry } = receipt;
  const jwk = trusted.find((key) => key.kid === statement.KeyId);
  if (!jwk) {
    problems.push(`no trusted key has the receipt's KeyId ${statement.KeyId}`);
  } else {
    let valid = false;
    try {
      valid = verify(
        null,
        signingInput(statement),
        publicKeyOf(jwk),
        Buffer.from(receipt.Signature, 'base64url'),
      );
    } catch {
      valid = false;
    }
    if (!valid) problems.push('the signature does not verify');
  }
  const expected: Array<[string, unknown, unknown]> = [
    ['ClientId', statement.ClientId, entry.clientId],
    ['ProfileId', statement.ProfileId, entry.profileId],
    ['EntryId', statement.EntryId, historyEntryId(entry)],
    ['Category', statement.Category, entry.category],
    ['EntryHash', statement.EntryHash, entry.hash],
    ['ChainPosition', statement.ChainPosition, receipt.Proof.length + 1],
  ];
  for (const [field, stated, actual] of expected) {
    if (stated !== actual)
      problems.push(`Receipt.${field} ${String(stated)} is not the entry's ${String(actual)}`);
  }
  let previous: string | null = null;
  for (const item of [...receipt.Proof, entry]) {
    const id = historyEntryId(item);
    if (!('redacted' in item && item.redacted)) {
      const actual = historyEntryHash(item);
      if (actual !== item.hash)
        problems.push(
          `entry ${id}: content hashes to ${actual}, the entry says ${String(item.hash)}`,
        );
    }
    if ((item.prevHash ?? null) !== previous) {
      problems.push(
        `entry ${id}: prevHash ${String(item.prevHash ?? null)} is not the previous entry's hash ${String(previous)}`,
      );
    }
    previous = item.hash ?? null;
  }
  return problems;
}
