import { Body, Get, HttpCode, Post, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ERASED_IDENTIFIER_CHECK_EXAMPLES, ERASURE_EXAMPLES } from '../wire/profile.examples';
import {
  ApiAcceptedResponse,
  ApiBody,
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiProduces,
} from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Readable } from 'node:stream';
import { ApiAuth, type Caller, CurrentCaller, grants, TenantController } from '@app/auth';
import {
  LocationHeader,
  PermissionDeniedError,
  type RequestWindow,
  WriteWindow,
} from '@app/shared';
import { DurableIdempotencyKeys } from '@app/shared';
import { EraseProfileCommand } from './erase-profile/erase-profile.command';
import { scopeOf } from '../domain/profile-view';
import {
  EraseProfileDto,
  ErasedIdentifierCheckDto,
  ErasedIdentifierCheckResultDto,
  ErasureTombstoneDto,
  ProfileExportDto,
} from './data-subject.dto';
import { ProfileSubmissionResultDto } from '../wire/profile.dto';
import { CheckErasedIdentifiersQuery } from './check-erased-identifiers/check-erased-identifiers.query';
import { ExportProfileQuery } from './export-profile/export-profile.query';
import { GetErasureQuery } from './get-erasure/get-erasure.query';
import { ApiProfileIdParam, ProfileIdParam } from '../wire/profile-id.param';

const EXPORT_ACCESS =
  'Needs profiles, history and events read, and a user group that sees all of the data (no program, consent type or custom field lists; consents and preferences at least read): an export is everything held, never a part';

/**
 * Data-subject requests (docs/data-subject.md): the export of everything held on a
 * profile, its erasure, the erasure's audit tombstone, and the check of identifiers
 * against those erasures left.
 */
@TenantController(':clientId', { tag: 'Data subject requests' })
export class ProfileDataSubjectController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get('Profile/:profileId/Export')
  @ApiProfileIdParam()
  @ApiAuth('profiles', 'read')
  @ApiOperation({
    summary: 'Export everything held on a profile, as one JSON download (streamed)',
    description: `The profile as GET shows it (implied and archived preferences included), its data as stored (inactive elements included), every history entry exactly as stored (all categories, in (seq, n) order, up to the last applied write; what a consent receipt chain is verified from), every kept event, the kept write records with their bodies (pending ones included) and the bulk import records applied to it. Sent with Content-Disposition: attachment, streamed as it is read (a history page or a write's events at a time). ${EXPORT_ACCESS}. Not included: the do-not-contact lists (a suppression list of the client's, not profile data; the profile's marks show in Profile), event deliveries' dead letters, bulk import staging and bulk export pages (docs/data-subject.md).`,
  })
  @ApiProduces('application/json')
  @ApiOkResponse({
    type: ProfileExportDto,
    description: 'The export (a download: Content-Disposition attachment; filename=...)',
    headers: {
      'Content-Disposition': {
        description: 'attachment; filename="profile-<id>-<time>.json"',
        schema: { type: 'string' },
      },
    },
  })
  @ApiForbiddenResponse({ description: EXPORT_ACCESS })
  @ApiNotFoundResponse({ description: 'Unknown client or profile (deleted and erased ones too)' })
  async export(
    @CurrentCaller() caller: Caller,
    @ProfileIdParam() profileId: number,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    requireWholeView(caller);
    const { fileName, chunks } = await this.queries.execute(
      new ExportProfileQuery(caller.clientId, profileId),
    );
    await reply
      .status(200)
      .type('application/json; charset=utf-8')
      .header('Content-Disposition', `attachment; filename="${fileName}"`)
      .send(Readable.from(chunks));
  }

  @Post('Profile/:profileId/Erasure')
  @DurableIdempotencyKeys()
  @HttpCode(202)
  @LocationHeader((result) => {
    const profileId = (result as Partial<ProfileSubmissionResultDto> | undefined)?.ProfileId;
    return typeof profileId === 'number'
      ? { location: `Profile/${profileId}/Erasure`, links: [] }
      : undefined;
  })
  @ApiProfileIdParam()
  @ApiAuth('profiles', 'write')
  @ApiOperation({
    summary:
      'Erase a profile: everything held on the person goes, an audit tombstone stays (queued)',
    description:
      "Queued like any profile write, so it applies after every write accepted before it. The worker then deletes the profile data (the id stays a tombstone and is never reused), its history, its write records (bodies), its events, its read model and search keys, its alternate-id claims, the answers kept for its requests under an Idempotency-Key and its event deliveries' dead letters, and writes an audit tombstone with no personal data: who asked, when, the ReasonCode and Note, and salted hashes (HMAC-SHA-256, a secret per client) of its emails, phones, alternate ids and name, so a later create or import of the same person can be checked (POST .../ErasedIdentifiers/Check). An erasure is never given up: after a crash of any process it is retried until done. Answers 202 with the submission result; GET .../Erasure shows the tombstone once done. The do-not-contact lists are kept (docs/data-subject.md).",
  })
  @ApiAcceptedResponse({
    type: ProfileSubmissionResultDto,
    description: "Accepted and queued; Location: the erasure's tombstone (readable once done)",
  })
  @ApiNotFoundResponse({ description: 'Unknown client or profile (deleted and erased ones too)' })
  @ApiBody({ type: EraseProfileDto, examples: ERASURE_EXAMPLES })
  erase(
    @CurrentCaller() caller: Caller,
    @ProfileIdParam() profileId: number,
    @Body() body: EraseProfileDto,
    @WriteWindow() window: RequestWindow | null,
  ): Promise<ProfileSubmissionResultDto> {
    return this.commands.execute(
      new EraseProfileCommand(
        caller.clientId,
        caller.userId,
        profileId,
        {
          ReasonCode: body.ReasonCode,
          ...(body.Note !== undefined ? { Note: body.Note } : {}),
        },
        window,
      ),
    );
  }

  @Get('Profile/:profileId/Erasure')
  @ApiProfileIdParam()
  @ApiAuth('profiles', 'read')
  @ApiOperation({
    summary: "A profile's erasure: the audit tombstone it left",
    description:
      'Who asked, when it was accepted and done, the ReasonCode and Note, and how many identifiers were hashed (the hashes themselves are not shown). 404 until the erasure is done, and for a profile never erased.',
  })
  @ApiOkResponse({ type: ErasureTombstoneDto })
  @ApiNotFoundResponse({ description: 'Unknown client or profile, or no erasure done' })
  erasure(
    @CurrentCaller() caller: Caller,
    @ProfileIdParam() profileId: number,
  ): Promise<ErasureTombstoneDto> {
    return this.queries.execute(new GetErasureQuery(caller.clientId, profileId));
  }

  @Post('ErasedIdentifiers/Check')
  @HttpCode(200)
  @ApiAuth('profiles', 'read')
  @ApiOperation({
    summary: 'Check identifiers against those of erased profiles',
    description: `Whether an erased profile of the client held any of these emails, phone numbers, alternate ids or names (compared as profiles match them: emails case-insensitively, phones by their digits, names by first and last name), so that a new create or import of a person who asked to be erased can be noticed. Each is hashed as the erasure hashed it and looked up by that hash: nothing else is stored or compared. At most 25 identifiers in each list. A POST so that no identifier appears in a URL (URLs are logged).`,
  })
  @ApiOkResponse({ type: ErasedIdentifierCheckResultDto })
  @ApiBody({ type: ErasedIdentifierCheckDto, examples: ERASED_IDENTIFIER_CHECK_EXAMPLES })
  check(
    @CurrentCaller() caller: Caller,
    @Body() body: ErasedIdentifierCheckDto,
  ): Promise<ErasedIdentifierCheckResultDto> {
    return this.queries.execute(new CheckErasedIdentifiersQuery(caller.clientId, body));
  }
}

/** An export shows everything: a caller that may see only part of it is refused. */
function requireWholeView(caller: Caller): void {
  const missing = (['history', 'events'] as const).filter(
    (area) => !grants(caller.group, area, 'read'),
  );
  if (missing.length)
    throw new PermissionDeniedError(
      `A data-subject export needs read permission on ${missing.join(' and ')} too`,
    );
  const scope = scopeOf(caller);
  if (
    scope &&
    (scope.programs ||
      scope.consentTypes ||
      scope.customFields ||
      scope.consents === 'none' ||
      scope.preferences === 'none')
  )
    throw new PermissionDeniedError(
      "A data-subject export shows all the data held on the person: the caller's user group sees only part of it",
    );
}
