import { Get } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiConflictResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { ApiAuth, type Caller, CurrentCaller, TenantController } from '@app/auth';
import { ApiProfileIdParam, ProfileIdParam } from '@app/profiles';
import {
  ConsentChainReportDto,
  ConsentReceiptDto,
  ConsentReceiptEntriesDto,
} from '../dto/consent-receipt.dto';
import { Iso27560RecordAnswerDto, KantaraReceiptAnswerDto } from '../dto/standard-receipt.dto';
import { toConsentReceiptDto } from '../mapping/consent-receipt.mapper';
import { toIso27560RecordDto, toKantaraReceiptDto } from '../mapping/standard-receipt.mapper';
import { GetConsentReceiptQuery } from '../queries/get-consent-receipt/get-consent-receipt.query';
import { GetStandardReceiptQuery } from '../queries/get-standard-receipt/get-standard-receipt.query';
import { ListConsentReceiptsQuery } from '../queries/list-consent-receipts/list-consent-receipts.query';
import { VerifyConsentChainQuery } from '../queries/verify-consent-chain/verify-consent-chain.query';
import { ApiEntryIdParam, EntryIdParam } from './entry-id.param';

const STANDARD =
  "The consent entry's chain is checked from its start to the entry first, as for the service's own receipt (409 when it fails). The document is signed as a compact JWS (EdDSA, Ed25519) by the receipt key, its header's kid the key's id in GET /Profiles/v4/ReceiptKeys: verify Jws against that key set (any JOSE library) and read the document from its payload. A preference entry, or an entry of a consent type outside the caller's user group, is a 404. docs/receipts.md maps every field to where it comes from";

const CHAIN =
  "A profile's consent and preference history entries form a hash chain (docs/receipts.md): each carries prevHash, the previous one's hash (null for the first), and hash, the SHA-256 of its canonical JSON (RFC 8785) as stored without hash. Entries recorded before the chain began carry neither.";

/**
 * Consent receipts: the chained entries of a profile, a signed receipt of one, and the
 * verification of the whole chain (Profiles' history read through ProfileHistoryChain).
 */
@TenantController(':clientId/Profile', {
  tag: 'Consent receipts',
  badRequest: 'Invalid profileId or entryId; the Message names it and the value',
  notFound:
    "Unknown client, unknown or deleted profile, or (receipt) no consent or preference entry of that id the caller's user group may see",
})
export class ConsentReceiptsController {
  constructor(private readonly queries: QueryBus) {}

  @Get(':profileId/ConsentReceipts')
  @ApiAuth('history', 'read')
  @ApiOperation({
    summary: 'The consent and preference changes a receipt can be asked for',
    description: `${CHAIN} Lists the chained entries the caller's user group may see, oldest first, with the EntryId of each one's receipt.`,
  })
  @ApiProfileIdParam()
  @ApiOkResponse({ type: ConsentReceiptEntriesDto })
  list(
    @CurrentCaller() caller: Caller,
    @ProfileIdParam() profileId: number,
  ): Promise<ConsentReceiptEntriesDto> {
    return this.queries.execute(new ListConsentReceiptsQuery(caller, profileId));
  }

  @Get(':profileId/ConsentReceipts/:entryId')
  @ApiAuth('history', 'read')
  @ApiOperation({
    summary: 'A signed receipt of one consent or preference change',
    description: `${CHAIN} The receipt holds the entry as stored, the chained entries before it (the proof: a verifier recomputes the chain from its start to the entry; entries the caller's user group may not see are given by their hashes only) and an Ed25519 signature by the service's key over the canonical JSON of Receipt (client, profile, entry id and hash, chain position, issue time, key id). Verify it offline with \`npm run verify-receipt -- FILE --key KEYS\`, the keys from GET /Profiles/v4/ReceiptKeys. 409 when the stored chain fails verification up to the entry (nothing is signed then).`,
  })
  @ApiProfileIdParam()
  @ApiEntryIdParam()
  @ApiOkResponse({ type: ConsentReceiptDto })
  @ApiConflictResponse({
    description: "The profile's stored chain fails verification at or before the entry",
  })
  async receipt(
    @CurrentCaller() caller: Caller,
    @ProfileIdParam() profileId: number,
    @EntryIdParam() entryId: { seq: number; n: number },
  ): Promise<ConsentReceiptDto> {
    return toConsentReceiptDto(
      await this.queries.execute(new GetConsentReceiptQuery(caller, profileId, entryId)),
    );
  }

  @Get(':profileId/ConsentReceipts/:entryId/Kantara')
  @ApiAuth('history', 'read')
  @ApiOperation({
    summary: 'A consent change as a signed Kantara Consent Receipt v1.1',
    description: `The consent history entry as a Kantara Initiative Consent Receipt Specification v1.1.0 document (version KI-CR-v1.1.0): every required field present, filled from the profile (piiPrincipalId: the ProfileId; language), the consent type, its version and its text, and the client as the controller; fields the service does not hold are empty (or filled from consent type attributes: Jurisdiction, PolicyUrl, PurposeCategory, PiiCategory, Termination, ThirdPartyName, SensitiveCategory). The claim pcp says what Kantara has no field for: the consent's status, and the entry's hash and place in the chain. ${STANDARD}.`,
  })
  @ApiProfileIdParam()
  @ApiEntryIdParam()
  @ApiOkResponse({ type: KantaraReceiptAnswerDto })
  @ApiConflictResponse({
    description: "The profile's stored chain fails verification at or before the entry",
  })
  async kantara(
    @CurrentCaller() caller: Caller,
    @ProfileIdParam() profileId: number,
    @EntryIdParam() entryId: { seq: number; n: number },
  ): Promise<KantaraReceiptAnswerDto> {
    return toKantaraReceiptDto(
      await this.queries.execute(
        new GetStandardReceiptQuery(caller, profileId, entryId, 'Kantara'),
      ),
    );
  }

  @Get(':profileId/ConsentReceipts/:entryId/ISO27560')
  @ApiAuth('history', 'read')
  @ApiOperation({
    summary: 'A consent change as a signed ISO/IEC TS 27560 consent record (JSON-LD, DPV)',
    description: `The consent history entry as an ISO/IEC TS 27560 consent record in JSON-LD with W3C Data Privacy Vocabulary terms (dct:conformsTo https://w3id.org/dpv/schema/dpv-27560#record): the data subject (the profile), the controller (the client), the notice (consent type, version, text, language), the purpose and legal basis, and the consent's state after the change as dpv:hasConsentStatus: dpv:ConsentGiven (Granted), dpv:ConsentRefused (Denied), dpv:ConsentWithdrawn (Revoked), dpv:ConsentRevoked (revoked by the service, or deactivated), dpv:ConsentExpired, dpv:ConsentUnknown (NotSet). dct:source names the history entry, its hash and its place in the chain. ${STANDARD}.`,
  })
  @ApiProfileIdParam()
  @ApiEntryIdParam()
  @ApiOkResponse({ type: Iso27560RecordAnswerDto })
  @ApiConflictResponse({
    description: "The profile's stored chain fails verification at or before the entry",
  })
  async iso27560(
    @CurrentCaller() caller: Caller,
    @ProfileIdParam() profileId: number,
    @EntryIdParam() entryId: { seq: number; n: number },
  ): Promise<Iso27560RecordAnswerDto> {
    return toIso27560RecordDto(
      await this.queries.execute(
        new GetStandardReceiptQuery(caller, profileId, entryId, 'ISO27560'),
      ),
    );
  }

  @Get(':profileId/ConsentChain')
  @ApiAuth('history', 'read')
  @ApiOperation({
    summary: "Verify a profile's consent and preference hash chain",
    description: `${CHAIN} Reads the profile's history pages, recomputes every chained entry's hash and link from the start, and compares the chain's end with the head the profile saved with its last write. Ok is true when nothing fails; otherwise Problems names each failing entry (<seq>.<n>) and why: content-hash-mismatch (its content changed), broken-link (an entry before it removed or its hash rewritten), missing-hash, head-mismatch (entries cut off the end). Every chained entry is checked, also those the caller's user group may not see (they are named, not shown).`,
  })
  @ApiProfileIdParam()
  @ApiOkResponse({ type: ConsentChainReportDto })
  verify(
    @CurrentCaller() caller: Caller,
    @ProfileIdParam() profileId: number,
  ): Promise<ConsentChainReportDto> {
    return this.queries.execute(new VerifyConsentChainQuery(caller, profileId));
  }
}
