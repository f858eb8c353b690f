import {
  Body,
  createParamDecorator,
  type ExecutionContext,
  Get,
  HttpCode,
  Param,
  Post,
} from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { EXPORT_SEGMENT_EXAMPLES } from '../dto/bulk.examples';
import {
  ApiBody,
  ApiCreatedResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
} from '@nestjs/swagger';
import { ApiAuth, type Caller, CurrentCaller, TenantController } from '@app/auth';
import { BooleanQuery, scopeOf } from '@app/profiles';
import {
  INT32_MAX,
  InvalidInputError,
  LocationHeader,
  parseIntValue,
  PositiveIntParam,
} from '@app/shared';
import { CommitBulkExportCommand } from '../commands/commit-bulk-export/commit-bulk-export.command';
import { InitiateBulkExportCommand } from '../commands/initiate-bulk-export/initiate-bulk-export.command';
import { EXPORT_ROWS_LIMIT_MAX } from '../domain/bulk-export';
import {
  AsyncExportStatusDto,
  type BulkExportRowsDto,
  type BulkExportStatusDto,
  ExportAccessTokenDto,
  ExportSegmentDto,
  ExportTokenStatusDto,
} from '../dto/bulk-export.dto';
import { toAsyncExportStatus, toExportTokenStatus } from '../mapping/bulk-export.mapper';
import { GetBulkExportQuery } from '../queries/get-bulk-export/get-bulk-export.query';
import {
  ApiExportTokenParam,
  CommitExportRoute,
  EXPORT_NOT_FOUND,
  ExportRowsRoute,
  retrieveRows,
} from './bulk-export.controller';

/**
 * The path segment after `export/Segment/`: the older Initiate's segment name (POST), the
 * older retrieval's AccessToken (GET). One name for both (OpenAPI allows no two paths that
 * differ only in a parameter's name); the GET reads it as the AccessToken.
 */
const SEGMENT = 'segment';

const SegmentAccessToken = createParamDecorator((_: unknown, ctx: ExecutionContext): number =>
  parseIntValue(
    'accessToken',
    ctx.switchToHttp().getRequest<{ params: Record<string, string> }>().params[SEGMENT],
  ),
);

/**
 * The older export routes of the compatibility notes, under `{clientId}`: Initiate by
 * segment, status by token, retrieval and commit. They answer the notes' shapes; the v4
 * routes (BulkExportController) do the same work.
 */
@TenantController(':clientId', { tag: 'Bulk export' })
export class OlderExportController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Post(`export/Segment/:${SEGMENT}`)
  @HttpCode(201)
  @ApiAuth('profiles', 'read')
  @LocationHeader((result) => ({
    location: `Bulk/Export/${(result as ExportAccessTokenDto).AccessToken}`,
  }))
  @ApiOperation({
    summary: 'Initiate an export of a segment (the older route): its AccessToken',
    description:
      "The same as POST /{clientId}/Bulk/Export with SegmentName from the path. Segments are labels: every segment is all the profiles of the account saved at or after LastDateTime. Location: the export's status.",
  })
  @ApiParam({
    name: SEGMENT,
    description: 'The segment name, a label kept on the export (1 to 100 characters, not blank)',
    schema: { type: 'string', minLength: 1, maxLength: 100, pattern: '\\S', example: 'crm-weekly' },
  })
  @ApiCreatedResponse({ type: ExportAccessTokenDto, description: 'Initiated (Processing)' })
  @ApiBody({ type: ExportSegmentDto, examples: EXPORT_SEGMENT_EXAMPLES })
  async initiate(
    @CurrentCaller() caller: Caller,
    @Param(SEGMENT) segment: string,
    @Body() body: ExportSegmentDto,
  ): Promise<ExportAccessTokenDto> {
    // Characters as the document counts them (code points), not UTF-16 units.
    if (!segment.trim() || [...segment].length > 100) {
      throw new InvalidInputError(
        `Invalid segmentName (value ${JSON.stringify(segment)}): must be 1 to 100 characters, not blank`,
      );
    }
    const status: BulkExportStatusDto = await this.commands.execute(
      new InitiateBulkExportCommand(caller.clientId, caller.userId, scopeOf(caller), {
        ...body,
        SegmentName: segment,
      }),
    );
    return { AccessToken: status.AccessToken };
  }

  @Get(`export/Segment/:${SEGMENT}`)
  @ExportRowsRoute(true)
  @ApiParam({
    name: SEGMENT,
    description: `The export's AccessToken, from Initiate (1 to ${INT32_MAX})`,
    schema: { type: 'integer', format: 'int32', minimum: 1, maximum: INT32_MAX },
  })
  rows(
    @CurrentCaller() caller: Caller,
    @SegmentAccessToken() accessToken: number,
    @PositiveIntParam('limit', { in: 'query', max: EXPORT_ROWS_LIMIT_MAX }) limit?: number,
    @PositiveIntParam('offset', { in: 'query' }) offset?: number,
    @BooleanQuery('keepAlive') keepAlive?: boolean,
  ): Promise<BulkExportRowsDto> {
    return retrieveRows(this.commands, caller, accessToken, limit, offset, keepAlive ?? false);
  }

  @Get('status/Token/:accessToken')
  @ApiAuth('profiles', 'read')
  @ApiOperation({
    summary: "An export's status (the older route)",
    description:
      'AccessToken, Expires, Status, RowCount and ByteCount of GET /{clientId}/Bulk/Export/{accessToken}.',
  })
  @ApiExportTokenParam()
  @ApiOkResponse({ type: ExportTokenStatusDto })
  @ApiNotFoundResponse(EXPORT_NOT_FOUND)
  async status(
    @CurrentCaller() caller: Caller,
    @PositiveIntParam('accessToken') accessToken: number,
  ): Promise<ExportTokenStatusDto> {
    return toExportTokenStatus(
      await this.queries.execute(new GetBulkExportQuery(caller.clientId, accessToken)),
    );
  }

  @Post('export/Schedule/Commit/:accessToken')
  @CommitExportRoute(true)
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

/** The older status route of the notes: `GET Async/{clientId}/Export/{accessToken}/Status`. */
@TenantController('Async/:clientId/Export', { tag: 'Bulk export' })
export class AsyncExportController {
  constructor(private readonly queries: QueryBus) {}

  @Get(':accessToken/Status')
  @ApiAuth('profiles', 'read')
  @ApiOperation({
    summary: "An export's status (the older Async route)",
    description:
      'AccessToken, Status, RowCount and ByteCount of GET /{clientId}/Bulk/Export/{accessToken}.',
  })
  @ApiExportTokenParam()
  @ApiOkResponse({ type: AsyncExportStatusDto })
  @ApiNotFoundResponse(EXPORT_NOT_FOUND)
  async status(
    @CurrentCaller() caller: Caller,
    @PositiveIntParam('accessToken') accessToken: number,
  ): Promise<AsyncExportStatusDto> {
    return toAsyncExportStatus(
      await this.queries.execute(new GetBulkExportQuery(caller.clientId, accessToken)),
    );
  }
}
