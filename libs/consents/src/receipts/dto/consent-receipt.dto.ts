import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

const HEX_HASH = 'a3f1c2d4e5b60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90';

/** What a hash chain entry records. */
const CATEGORY_DESCRIPTION =
  "consent: an entry of the profile's consent history; preference: an entry of its preference history";

/** A public key of the receipts, a JWK (RFC 7517, RFC 8037: OKP, Ed25519). */
export class ReceiptPublicKeyDto {
  @ApiProperty({ enum: ['OKP'], description: 'Key type (RFC 8037)' }) kty: 'OKP';
  @ApiProperty({ enum: ['Ed25519'], description: 'Curve' }) crv: 'Ed25519';
  @ApiProperty({
    description: 'The public key: its 32 bytes, base64url',
    example: '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo',
  })
  x: string;
  @ApiProperty({
    description:
      "Key id: the key's RFC 7638 thumbprint (base64url SHA-256); a receipt's Receipt.KeyId names it",
    example: 'kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k',
  })
  kid: string;
  @ApiProperty({ enum: ['EdDSA'] }) alg: 'EdDSA';
  @ApiProperty({ enum: ['sig'] }) use: 'sig';
}

/** The receipts' public keys (a JWK set, RFC 7517). */
export class ReceiptKeySetDto {
  @ApiProperty({
    type: [ReceiptPublicKeyDto],
    description: 'The active key first, then earlier keys whose receipts still verify',
  })
  keys: ReceiptPublicKeyDto[];
}

/** The signed statement of a receipt. */
export class ReceiptStatementDto {
  @ApiProperty({ example: 1, description: 'Receipt format version' }) Version: number;
  @ApiProperty({ example: 'acme' }) ClientId: string;
  @ApiProperty({ example: 7 }) ProfileId: number;
  @ApiProperty({
    example: '3.1',
    description: "The entry: <seq>.<n> (the write's sequence number, the entry's index in it)",
  })
  EntryId: string;
  @ApiProperty({ enum: ['consent', 'preference'], description: CATEGORY_DESCRIPTION })
  Category: string;
  @ApiProperty({
    example: HEX_HASH,
    description: "The entry's hash (SHA-256, hex), which covers its prevHash and so the chain",
  })
  EntryHash: string;
  @ApiProperty({ example: 4, description: "The entry's place in the chain, from 1" })
  ChainPosition: number;
  @ApiProperty({ enum: ['SHA-256'] }) HashAlgorithm: string;
  @ApiProperty({ enum: ['RFC8785'], description: 'JSON Canonicalization Scheme' })
  Canonicalization: string;
  @ApiProperty({ format: 'date-time', description: 'When the service signed the receipt' })
  IssuedAt: string;
  @ApiProperty({ enum: ['Ed25519'] }) SignatureAlgorithm: string;
  @ApiProperty({ description: 'The signing key (kid of GET /Profiles/v4/ReceiptKeys)' })
  KeyId: string;
}

/** A consent receipt (docs/receipts.md, "The receipt"). */
export class ConsentReceiptDto {
  @ApiProperty({ type: ReceiptStatementDto }) Receipt: ReceiptStatementDto;
  @ApiProperty({
    description:
      'Ed25519 signature (base64url) over the canonical JSON (RFC 8785) of Receipt, UTF-8',
  })
  Signature: string;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description:
      'The history entry exactly as stored (the form that is hashed): _id, clientId, profileId, seq, n, category, modifiedAt, list, container, filterKey, snapshot (the consent or preference after the write), prevHash, hash',
  })
  Entry: Record<string, unknown>;
  @ApiProperty({
    type: 'array',
    items: { type: 'object', additionalProperties: true },
    description:
      "The chained entries before it, oldest first: each as stored, or, when the caller's user group may not see it, its links only (seq, n, category, prevHash, hash, redacted: true). The first has prevHash null; each next one's prevHash is the hash before it, the Entry's prevHash the last one's",
  })
  Proof: Record<string, unknown>[];
  @ApiProperty({
    type: ReceiptPublicKeyDto,
    description:
      'The signing key, for convenience; a verifier pins the keys of GET /Profiles/v4/ReceiptKeys instead',
  })
  PublicKey: ReceiptPublicKeyDto;
}

/** One chained history entry a receipt can be asked for. */
export class ConsentReceiptEntryDto {
  @ApiProperty({ example: '3.1', description: 'The {entryId} of its receipt: <seq>.<n>' })
  EntryId: string;
  @ApiProperty({ enum: ['consent', 'preference'], description: CATEGORY_DESCRIPTION })
  Category: string;
  @ApiPropertyOptional({
    example: 'Consents',
    description: 'The list holding the item (Consents, ProfilePreferences, EmailPreferences...)',
  })
  List?: string;
  @ApiPropertyOptional({
    example: 'Terms',
    description: "A consent's ConsentType",
  })
  ConsentType?: string;
  @ApiPropertyOptional({ example: '12', description: "A preference's ProgramId" })
  ProgramId?: string;
  @ApiProperty({ format: 'date-time', description: "When the entry's write was accepted" })
  ModifiedAt: string;
  @ApiProperty({ example: HEX_HASH }) Hash: string;
}

export class ConsentReceiptEntriesDto {
  @ApiProperty({ example: 7 }) ProfileId: number;
  @ApiProperty({ type: [ConsentReceiptEntryDto], description: 'Oldest first' })
  Entries: ConsentReceiptEntryDto[];
}

/** One entry that fails verification. */
export class ChainProblemDto {
  @ApiProperty({
    nullable: true,
    example: '3.1',
    type: String,
    description: 'The failing entry (<seq>.<n>); null for a head mismatch of an empty chain',
  })
  EntryId: string | null;
  @ApiProperty({
    enum: ['content-hash-mismatch', 'broken-link', 'missing-hash', 'head-mismatch'],
    description:
      "content-hash-mismatch: the entry's content does not hash to its hash (it was changed); broken-link: its prevHash is not the previous chained entry's hash (an entry removed or reordered, or a hash rewritten); missing-hash: a consent or preference entry after the chain began has no hash; head-mismatch: the chain does not end at the hash the profile saved (entries cut off the end)",
  })
  Reason: string;
  @ApiProperty({ description: 'What was expected and found' }) Detail: string;
}

/**
 * The verification of the chain of a profile that was merged into the checked one (or into
 * one it absorbed): its stored chain must end at the head the merge entry hashed.
 */
export class AbsorbedChainReportDto {
  @ApiProperty({ example: 9 }) ProfileId: number;
  @ApiProperty({ example: 7, description: 'The profile whose merge entry names this one' })
  AbsorbedBy: number;
  @ApiProperty({
    description:
      "True when every chained entry verifies and the chain ends at the merge entry's AbsorbedHead",
  })
  Ok: boolean;
  @ApiProperty({ example: 3 }) Chained: number;
  @ApiProperty({ example: 0 }) Unchained: number;
  @ApiProperty({ nullable: true, type: String, example: HEX_HASH }) Head: string | null;
  @ApiProperty({
    nullable: true,
    type: String,
    example: HEX_HASH,
    description: "Its chain head when it was absorbed, as the survivor's merge entry holds it",
  })
  AbsorbedHead: string | null;
  @ApiProperty({
    type: [ChainProblemDto],
    description:
      'As for the checked profile; a profile the merge entry names but that is not stored is one head-mismatch with EntryId null',
  })
  Problems: ChainProblemDto[];
}

/** The verification of a profile's chain. */
export class ConsentChainReportDto {
  @ApiProperty({ example: 7 }) ProfileId: number;
  @ApiProperty({
    description:
      'True when every chained entry verifies, here and in the chains of the profiles it absorbed (Absorbed)',
  })
  Ok: boolean;
  @ApiProperty({ example: 4, description: 'Chained entries checked' }) Chained: number;
  @ApiProperty({
    example: 0,
    description:
      'Consent and preference entries recorded before the chain began (no hash): not checked',
  })
  Unchained: number;
  @ApiProperty({
    nullable: true,
    type: String,
    example: HEX_HASH,
    description: "The last chained entry's hash as stored (null: none)",
  })
  Head: string | null;
  @ApiProperty({
    nullable: true,
    type: String,
    example: HEX_HASH,
    description: 'The head the profile saved with its last write (null: none)',
  })
  SavedHead: string | null;
  @ApiProperty({ type: [ChainProblemDto] }) Problems: ChainProblemDto[];
  @ApiProperty({
    type: [AbsorbedChainReportDto],
    description:
      'The chains of the profiles merged into this one, and into those, in merge order (empty: none)',
  })
  Absorbed: AbsorbedChainReportDto[];
}
