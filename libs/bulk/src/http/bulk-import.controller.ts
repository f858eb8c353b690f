import { applyDecorators, Body, Get, HttpCode, Post } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import {
  INITIATE_IMPORT_EXAMPLES,
  STAGE_RECORDS_EXAMPLES,
  STAGE_RECORDS_NDJSON,
} from '../dto/bulk.examples';
import {
  ApiAcceptedResponse,
  ApiBody,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiPayloadTooLargeResponse,
  ApiQuery,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import { ApiAuth, type Caller, CurrentCaller, TenantController } from '@app/auth';
import { scopeOf } from '@app/profiles';
import {
  AcceptsStream,
  ApiStreamedBody,
  BodyLimit,
  EnvReader,
  INT32_MAX,
  InvalidInputError,
  linkTo,
  LocationHeader,
  NDJSON_MEDIA_TYPES,
  PositiveIntParam,
  RequestDeadline,
  StreamedBody,
} from '@app/shared';
import { ndjsonRecords } from './ndjson-records';
import { BulkSettings } from '../bulk-settings';
import { InitiateBulkImportCommand } from '../commands/initiate-bulk-import/initiate-bulk-import.command';
import { StageBulkImportCommand } from '../commands/stage-bulk-import/stage-bulk-import.command';
import { ExecuteBulkImportCommand } from '../commands/execute-bulk-import/execute-bulk-import.command';
import { EXCEPTIONS_LIMIT_MAX } from '../domain/bulk-import';
import {
  BulkImportExceptionsDto,
  BulkImportStatusDto,
  InitiateBulkImportDto,
} from '../dto/bulk-import.dto';
import { GetBulkImportExceptionsQuery } from '../queries/get-bulk-import-exceptions/get-bulk-import-exceptions.query';
import { GetBulkImportQuery } from '../queries/get-bulk-import/get-bulk-import.query';
import { ApiJobTokenParam, jobStatusLocation, TOKEN_LINK } from './bulk-job-routes';

/** The `{accessToken}` of an import's routes (PositiveIntParam). */
const ApiAccessTokenParam = () => ApiJobTokenParam('import');

/** The 401 and 404 of a route of one import: its AccessToken expired, or no such import. */
const ApiImportTokenAnswers = () =>
  applyDecorators(
    ApiUnauthorizedResponse({
      description:
        'Authorization missing or invalid (with a WWW-Authenticate header), or the AccessToken has expired (without one): {"Message": "..."}',
    }),
    ApiNotFoundResponse({
      description: 'Unknown client, or no import of the client has this AccessToken',
    }),
  );

/** Location of an import's answer: its status (Link rel="monitor" too). */
const importLocation = jobStatusLocation('Bulk/Import');

/**
 * Execute, on the v4 route and the older `Async/{clientId}/Import/{accessToken}/Execute`
 * (AsyncImportController): one description for both.
 */
export function ExecuteBulkImportRoute(older = false): MethodDecorator {
  return applyDecorators(
    Post(':accessToken/Execute'),
    HttpCode(202),
    ApiAuth('profiles', 'write'),
    LocationHeader(importLocation),
    ApiOperation({
      summary: older
        ? 'Execute a bulk import (the older Async route)'
        : 'Execute a bulk import: the worker applies its staged records',
      description:
        (older ? 'The same as POST /{clientId}/Bulk/Import/{accessToken}/Execute. ' : '') +
        "Step 3: the import becomes Queued and the worker applies its staged records in staging order, each as a profile write of the Data API (an upsert by the record's alternate id of the MatchValue type for Add, a delete of the profile holding it for Delete; Refresh* flags replace those collections of a matched profile instead of merging them), written as the caller within their user group's scope. Records the checks refuse against the stored profile become exceptions (NotHonored). Status shows Processing, then Completed, with Processed and Pending moving. Execute of a Queued or Processing import only queues its run again (a run lost with Redis goes on from its saved progress); of a Completed or Failed one: 409. No Stage after Execute (409).",
    }),
    ApiAccessTokenParam(),
    ApiAcceptedResponse({
      type: BulkImportStatusDto,
      description: 'Queued; Location and Link rel="monitor": the import\'s status',
      links: {
        GetStatus: linkTo('BulkImportController_status', TOKEN_LINK),
        GetExceptions: linkTo('BulkImportController_exceptions', TOKEN_LINK),
      },
    }),
    ApiImportTokenAnswers(),
    ApiConflictResponse({
      description: 'The import has ended (Completed or Failed), or a Stage of it is running',
    }),
  );
}

@TenantController(':clientId/Bulk/Import', { tag: 'Bulk import' })
export class BulkImportController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly settings: BulkSettings,
  ) {}

  @Post()
  @HttpCode(201)
  @ApiAuth('profiles', 'write')
  @LocationHeader(importLocation)
  @ApiOperation({
    summary: 'Initiate a bulk import: its AccessToken',
    description:
      'Step 1 of Initiate, Stage (repeatable), Execute, Status, Exceptions. Records will be matched to profiles by the alternate id of type MatchValue (MatchCriteria AlternateIdType, the only criterion). Answers the import with its integer AccessToken (unique per account) and Expires (BULK_IMPORT_TOKEN_TTL_MS after now, 12 hours by default); Location: its status. An account may initiate its bulk imports per day quota (its own, set by the operator, else BULK_IMPORT_DAILY_LIMIT, 100 by default) in any 24 hours: 429 with Retry-After beyond.',
  })
  @ApiCreatedResponse({
    type: BulkImportStatusDto,
    description: 'Initiated',
    links: {
      Stage: linkTo('BulkImportController_stage', TOKEN_LINK),
      GetStatus: linkTo('BulkImportController_status', TOKEN_LINK),
    },
  })
  @ApiBody({ type: InitiateBulkImportDto, examples: INITIATE_IMPORT_EXAMPLES })
  initiate(
    @CurrentCaller() caller: Caller,
    @Body() body: InitiateBulkImportDto,
  ): Promise<BulkImportStatusDto> {
    return this.commands.execute(
      new InitiateBulkImportCommand(caller.clientId, caller.userId, body, caller.quotas),
    );
  }

  @Post(':accessToken/Stage')
  @HttpCode(200)
  @AcceptsStream(NDJSON_MEDIA_TYPES)
  @ApiStreamedBody({
    'application/x-ndjson': {
      schema: {
        type: 'string',
        description:
          'Newline-delimited JSON: one profile record per line (blank lines skipped), read as it arrives; a line that is not JSON becomes an exception record',
      },
      example: STAGE_RECORDS_NDJSON,
    },
  })
  @BodyLimit((env) => new BulkSettings(new EnvReader(env)).stageMaxBytes)
  @RequestDeadline((env) => new BulkSettings(new EnvReader(env)).stageDeadlineMs)
  @ApiAuth('profiles', 'write')
  @ApiOperation({
    summary: 'Stage profile records of an import',
    description:
      "A JSON array of profile records, in the shape the Data API's profile writes accept, each holding an active AlternateId of the import's MatchValue type; or the same records as newline-delimited JSON (application/x-ndjson, one record per line), read and checked as the body arrives, with no bound on their number. Each record is checked as a profile write's acceptance checks it (fields, the account's configuration, the caller's user-group scope); the valid ones are staged (ValidationSuccessful), the others become exception records with their reason (ValidationFailed). At most 1000 records per JSON array, and BULK_STAGE_MAX_BYTES of body (25 MB by default, 28 MB at most); stage again for more while the token is active. Stages of one import run one at a time (409 meanwhile). Answers the import's status.",
  })
  @ApiAccessTokenParam()
  // Items of any shape: a record that is not a valid profile is not a 400 of the call but an
  // exception record of the import (its reason names the field and the value).
  @ApiBody({
    description:
      'The profile records, each in the shape of the Profile schema (ProfileDto); a record that does not conform becomes an exception record',
    schema: { type: 'array', maxItems: 1000, items: {} },
    examples: STAGE_RECORDS_EXAMPLES,
  })
  @ApiOkResponse({
    type: BulkImportStatusDto,
    description: 'Staged; the counters include this call',
    links: { GetExceptions: linkTo('BulkImportController_exceptions', TOKEN_LINK) },
  })
  @ApiImportTokenAnswers()
  @ApiConflictResponse({
    description: 'Another Stage of the import is running, or the import was executed',
  })
  @ApiPayloadTooLargeResponse({
    description: 'The body is over BULK_STAGE_MAX_BYTES (25 MB by default)',
  })
  stage(
    @CurrentCaller() caller: Caller,
    @PositiveIntParam('accessToken') accessToken: number,
    @Body() records: unknown,
  ): Promise<BulkImportStatusDto> {
    if (records instanceof StreamedBody) {
      return this.commands.execute(
        new StageBulkImportCommand(
          caller.clientId,
          accessToken,
          ndjsonRecords(records.stream, this.settings.stageMaxBytes),
          scopeOf(caller),
        ),
      );
    }
    if (!Array.isArray(records)) {
      throw new InvalidInputError(
        `The body must be a JSON array of profile records (value of type ${records === null ? 'null' : typeof records})`,
      );
    }
    return this.commands.execute(
      new StageBulkImportCommand(caller.clientId, accessToken, records, scopeOf(caller)),
    );
  }

  @ExecuteBulkImportRoute()
  execute(
    @CurrentCaller() caller: Caller,
    @PositiveIntParam('accessToken') accessToken: number,
  ): Promise<BulkImportStatusDto> {
    return executeImport(this.commands, caller, accessToken);
  }

  @Get(':accessToken')
  @ApiAuth('profiles', 'read')
  @ApiOperation({
    summary: "An import's status and counters",
    description:
      'The BulkImportStatus: Status, Expires, the counters and the fields of Initiate. Readable until Expires, while the import runs, and DataStageDuration days after it ended (401 after).',
  })
  @ApiAccessTokenParam()
  @ApiOkResponse({ type: BulkImportStatusDto })
  @ApiImportTokenAnswers()
  status(
    @CurrentCaller() caller: Caller,
    @PositiveIntParam('accessToken') accessToken: number,
  ): Promise<BulkImportStatusDto> {
    return this.queries.execute(new GetBulkImportQuery(caller.clientId, accessToken));
  }

  @Get(':accessToken/Exceptions')
  @ApiAuth('profiles', 'read')
  @ApiOperation({
    summary: "A page of an import's exception records",
    description:
      'The records refused by Stage (ValidationFailed) and by Execute (NotHonored), numbered from 1 in the order they arose, each with its reason. offset is the first record number (from 1), limit how many.',
  })
  @ApiAccessTokenParam()
  @ApiQuery({
    name: 'limit',
    required: false,
    description: `Records per page, 1 to ${EXCEPTIONS_LIMIT_MAX} (default ${EXCEPTIONS_LIMIT_MAX})`,
    schema: {
      type: 'integer',
      minimum: 1,
      maximum: EXCEPTIONS_LIMIT_MAX,
      default: EXCEPTIONS_LIMIT_MAX,
    },
  })
  @ApiQuery({
    name: 'offset',
    required: false,
    description: 'The first record number, from 1 (default 1)',
    schema: { type: 'integer', minimum: 1, maximum: INT32_MAX, default: 1 },
  })
  @ApiOkResponse({ type: BulkImportExceptionsDto })
  @ApiImportTokenAnswers()
  exceptions(
    @CurrentCaller() caller: Caller,
    @PositiveIntParam('accessToken') accessToken: number,
    @PositiveIntParam('limit', { in: 'query', max: EXCEPTIONS_LIMIT_MAX }) limit?: number,
    @PositiveIntParam('offset', { in: 'query' }) offset?: number,
  ): Promise<BulkImportExceptionsDto> {
    return this.queries.execute(
      new GetBulkImportExceptionsQuery(
        caller.clientId,
        accessToken,
        offset ?? 1,
        limit ?? EXCEPTIONS_LIMIT_MAX,
      ),
    );
  }
}

/** Execute, for both routes. */
export function executeImport(
  commands: CommandBus,
  caller: Caller,
  accessToken: number,
): Promise<BulkImportStatusDto> {
  return commands.execute(
    new ExecuteBulkImportCommand(caller.clientId, accessToken, caller.userId, scopeOf(caller)),
  );
}
