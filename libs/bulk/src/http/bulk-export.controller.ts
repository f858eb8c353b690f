import { applyDecorators, Body, Get, HttpCode, Post, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { INITIATE_EXPORT_EXAMPLES } from '../dto/bulk.examples';
import {
  ApiBody,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiProduces,
  ApiQuery,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Readable } from 'node:stream';
import { ApiAuth, type Caller, CurrentCaller, TenantController } from '@app/auth';
import { BooleanQuery, scopeOf } from '@app/profiles';
import { INT32_MAX, linkTo, LocationHeader, PositiveIntParam } from '@app/shared';
import { CommitBulkExportCommand } from '../commands/commit-bulk-export/commit-bulk-export.command';
import { InitiateBulkExportCommand } from '../commands/initiate-bulk-export/initiate-bulk-export.command';
import { RetrieveBulkExportCommand } from '../commands/retrieve-bulk-export/retrieve-bulk-export.command';
import { StreamBulkExportCommand } from '../commands/stream-bulk-export/stream-bulk-export.command';
import { EXPORT_ROWS_LIMIT_DEFAULT, EXPORT_ROWS_LIMIT_MAX } from '../domain/bulk-export';
import {
  BulkExportRowsDto,
  BulkExportStatusDto,
  InitiateBulkExportDto,
} from '../dto/bulk-export.dto';
import { GetBulkExportQuery } from '../queries/get-bulk-export/get-bulk-export.query';
import { ApiJobTokenParam, jobStatusLocation, TOKEN_LINK } from './bulk-job-routes';

/** The `{accessToken}` of an export's routes (PositiveIntParam). */
export const ApiExportTokenParam = () => ApiJobTokenParam('export');

export const EXPORT_EXPIRED = {
  description:
    'Authorization missing or invalid (with a WWW-Authenticate header), or the export has Expired (without one): {"Message": "..."}',
};
export const EXPORT_NOT_FOUND = {
  description: 'Unknown client, or no export of the client has this AccessToken',
};

/** The 401 and 404 of a route of one export: it has Expired, or no such export. */
const ApiExportTokenAnswers = () =>
  applyDecorators(ApiUnauthorizedResponse(EXPORT_EXPIRED), ApiNotFoundResponse(EXPORT_NOT_FOUND));
const NOT_READABLE = {
  description:
    'The export is not Complete yet (Processing, Error), Failed, or was committed without keepFiles',
};

const KEEP_ALIVE =
  'true: Expires starts again (BULK_EXPORT_TTL_MS from now) and the export stays as it is; false (default): a retrieval that reaches the end (HasMore false) marks a Complete export Retrieved (its rows stay readable until Commit or Expires)';

/** The `limit`, `offset` and `keepAlive` of a retrieval (both routes). */
export function ApiExportRowsQueries(): MethodDecorator {
  return applyDecorators(
    ApiQuery({
      name: 'limit',
      required: false,
      description: `Rows per page, 1 to ${EXPORT_ROWS_LIMIT_MAX} (default ${EXPORT_ROWS_LIMIT_DEFAULT})`,
      schema: {
        type: 'integer',
        minimum: 1,
        maximum: EXPORT_ROWS_LIMIT_MAX,
        default: EXPORT_ROWS_LIMIT_DEFAULT,
      },
    }),
    ApiQuery({
      name: 'offset',
      required: false,
      description: 'The first row, from 1 (default 1)',
      schema: { type: 'integer', minimum: 1, maximum: INT32_MAX, default: 1 },
    }),
    ApiQuery({ name: 'keepAlive', required: false, type: Boolean, description: KEEP_ALIVE }),
  );
}

/** The retrieval of rows, on the v4 route and the older `export/Segment/{accessToken}`. */
export function ExportRowsRoute(older = false): MethodDecorator {
  return applyDecorators(
    ApiAuth('profiles', 'read'),
    ApiOperation({
      summary: older
        ? 'A page of an export (the older route)'
        : 'A page of an export: its rows, each a profile',
      description:
        (older ? 'The same as GET /{clientId}/Bulk/Export/{accessToken}/Rows. ' : '') +
        "Rows offset to offset + limit - 1 (from 1), in profile id order: each a profile as GET .../Profile/{profileId} shows it to the exporter's user group (implied preferences included), with its archived (inactive) preferences marked IsActive false; with a MatchCriteria, its key as MatchKey. Each row is one stored state of the profile (the state after one applied write). Readable once the export is Complete, until Commit (without keepFiles) or Expires.",
    }),
    ApiExportRowsQueries(),
    ApiOkResponse({ type: BulkExportRowsDto }),
    ApiExportTokenAnswers(),
    ApiConflictResponse(NOT_READABLE),
  );
}

/** Commit, on the v4 route and the older `export/Schedule/Commit/{accessToken}`. */
export function CommitExportRoute(older = false): MethodDecorator {
  return applyDecorators(
    HttpCode(200),
    ApiAuth('profiles', 'read'),
    ApiOperation({
      summary: older ? 'Commit an export (the older route)' : 'Commit an export: it ends',
      description:
        (older ? 'The same as POST /{clientId}/Bulk/Export/{accessToken}/Commit. ' : '') +
        'The client has the rows: the export becomes Retrieved and, unless keepFiles=true, its rows are removed (retrievals answer 409 from now on). With keepFiles=true they stay readable until Expires. Committing again answers the same.',
    }),
    ApiQuery({
      name: 'keepFiles',
      required: false,
      type: Boolean,
      description: 'true: the rows stay readable until Expires; default false: they are removed',
    }),
    ApiOkResponse({ type: BulkExportStatusDto }),
    ApiExportTokenAnswers(),
    ApiConflictResponse({ description: 'The export is not Complete (Processing, Error, Failed)' }),
  );
}

@TenantController(':clientId/Bulk/Export', { tag: 'Bulk export' })
export class BulkExportController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Post()
  @HttpCode(201)
  @ApiAuth('profiles', 'read')
  @LocationHeader(jobStatusLocation('Bulk/Export'))
  @ApiOperation({
    summary: 'Initiate an export of profiles: its AccessToken',
    description:
      "Step 1 of Initiate, Status, Rows (or Stream), Commit. The worker exports every active profile of the account saved at or after LastDateTime (all without it), optionally only those holding the MatchCriteria's element, in pages; Status shows Processing, then Complete with RowCount and ByteCount. A CallbackURL receives the status when it is Complete or Failed. Answers the export with its integer AccessToken (unique per account); Location: its status.",
  })
  @ApiCreatedResponse({
    type: BulkExportStatusDto,
    description: 'Initiated (Processing)',
    links: {
      GetStatus: linkTo('BulkExportController_status', TOKEN_LINK),
      GetRows: linkTo('BulkExportController_rows', TOKEN_LINK),
    },
  })
  @ApiBody({ type: InitiateBulkExportDto, examples: INITIATE_EXPORT_EXAMPLES })
  initiate(
    @CurrentCaller() caller: Caller,
    @Body() body: InitiateBulkExportDto,
  ): Promise<BulkExportStatusDto> {
    return this.commands.execute(
      new InitiateBulkExportCommand(caller.clientId, caller.userId, scopeOf(caller), body),
    );
  }

  @Get(':accessToken')
  @ApiAuth('profiles', 'read')
  @ApiOperation({
    summary: "An export's status and counters",
    description:
      'Status (Processing, Error, Failed, Complete, Retrieved, Expired), RowCount, ByteCount, Expires and the fields of Initiate. An ended export past Expires answers Status Expired (its rows are removed).',
  })
  @ApiExportTokenParam()
  @ApiOkResponse({ type: BulkExportStatusDto })
  @ApiNotFoundResponse(EXPORT_NOT_FOUND)
  status(
    @CurrentCaller() caller: Caller,
    @PositiveIntParam('accessToken') accessToken: number,
  ): Promise<BulkExportStatusDto> {
    return this.queries.execute(new GetBulkExportQuery(caller.clientId, accessToken));
  }

  @Get(':accessToken/Rows')
  @ExportRowsRoute()
  @ApiExportTokenParam()
  rows(
    @CurrentCaller() caller: Caller,
    @PositiveIntParam('accessToken') accessToken: number,
    @PositiveIntParam('limit', { in: 'query', max: EXPORT_ROWS_LIMIT_MAX }) limit?: number,
    @PositiveIntParam('offset', { in: 'query' }) offset?: number,
    @BooleanQuery('keepAlive') keepAlive?: boolean,
  ): Promise<BulkExportRowsDto> {
    return retrieveRows(this.commands, caller, accessToken, limit, offset, keepAlive ?? false);
  }

  @Get(':accessToken/Stream')
  @ApiAuth('profiles', 'read')
  @ApiOperation({
    summary: 'Every row of an export as NDJSON, streamed',
    description:
      'The rows of Rows, all of them, one JSON object per line (application/x-ndjson), streamed page by page as they are read. Refused as Rows is (401, 404, 409) before anything is sent. Read to the end, it counts as a retrieval that reached the end (keepAlive as on Rows).',
  })
  @ApiExportTokenParam()
  @ApiQuery({ name: 'keepAlive', required: false, type: Boolean, description: KEEP_ALIVE })
  @ApiProduces('application/x-ndjson')
  @ApiOkResponse({
    description: 'One profile per line, in profile id order (the rows of Rows)',
    content: {
      'application/x-ndjson': {
        schema: { type: 'string', description: 'Lines of JSON, each an ExportedProfileDto' },
      },
    },
  })
  @ApiExportTokenAnswers()
  @ApiConflictResponse(NOT_READABLE)
  async stream(
    @CurrentCaller() caller: Caller,
    @PositiveIntParam('accessToken') accessToken: number,
    @BooleanQuery('keepAlive') keepAlive: boolean,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const lines = await this.commands.execute(
      new StreamBulkExportCommand(caller.clientId, accessToken, keepAlive),
    );
    // Pulled a page at a time as the socket drains: never the whole export in memory.
    await reply.status(200).type('application/x-ndjson; charset=utf-8').send(Readable.from(lines));
  }

  @Post(':accessToken/Commit')
  @CommitExportRoute()
  @ApiExportTokenParam()
  commit(
    @CurrentCaller() caller: Caller,
    @PositiveIntParam('accessToken') accessToken: number,
    @BooleanQuery('keepFiles') keepFiles: boolean,
  ): Promise<BulkExportStatusDto> {
    return this.commands.execute(
      new CommitBulkExportCommand(caller.clientId, accessToken, keepFiles),
    );
  }
}

/** A retrieval of rows, for both routes. */
export function retrieveRows(
  commands: CommandBus,
  caller: Caller,
  accessToken: number,
  limit: number | undefined,
  offset: number | undefined,
  keepAlive: boolean,
): Promise<BulkExportRowsDto> {
  return commands.execute(
    new RetrieveBulkExportCommand(
      caller.clientId,
      accessToken,
      offset ?? 1,
      limit ?? EXPORT_ROWS_LIMIT_DEFAULT,
      keepAlive,
    ),
  );
}
