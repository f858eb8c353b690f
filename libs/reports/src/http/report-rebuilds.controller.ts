import { Body, HttpCode, Post } from '@nestjs/common';
import { ApiAcceptedResponse, ApiBadRequestResponse, ApiBody, ApiOperation } from '@nestjs/swagger';
import { REPORT_REBUILD_EXAMPLES } from '../dto/report.examples';
import { InvalidInputError, OperatorController } from '@app/shared';
import { ReportRebuildDto, ReportRebuildRequestDto } from '../dto/report.dto';
import { ReportRebuilds } from '../services/report-rebuilds.service';

/**
 * The operator's rebuild of a client's counts (after a loss, or counts suspected wrong):
 * outside any client, behind the operator credential (OPERATOR_TOKEN), like Jobs/Status.
 */
@OperatorController('Reports', {
  tag: 'Reports',
  unauthorized: 'The operator credential is missing or wrong',
})
export class ReportRebuildsController {
  constructor(private readonly rebuilds: ReportRebuilds) {}

  @Post('Rebuilds')
  @HttpCode(202)
  @ApiOperation({
    summary: "Rebuild a client's current counts from its stored profiles (operator)",
    description:
      'Queues the rebuild (a worker job, resumable): it reads the client\'s profiles by id, each by `_id` (no scan), recomputes the counts into fresh hashes while writes keep being counted, and swaps them in at once. A rebuild under way goes on unless Restart. The daily series are not recomputed (docs/reports.md, "Rebuild"). GET .../Reports/Counts shows Rebuilding until it ends.',
  })
  @ApiBody({ type: ReportRebuildRequestDto, examples: REPORT_REBUILD_EXAMPLES })
  @ApiAcceptedResponse({ type: ReportRebuildDto })
  @ApiBadRequestResponse({ description: 'A bad body; the Message names the field' })
  async rebuild(@Body() body: unknown): Promise<ReportRebuildDto> {
    const { ClientId, Restart } = rebuildRequestOf(body);
    await this.rebuilds.queue(ClientId, Restart ?? false);
    return { ClientId, Status: 'Queued' };
  }
}

function rebuildRequestOf(body: unknown): ReportRebuildRequestDto {
  if (!body || typeof body !== 'object' || Array.isArray(body))
    throw new InvalidInputError('The body must be {"ClientId": "...", "Restart": false}');
  const { ClientId, Restart, ...rest } = body as Record<string, unknown>;
  const extra = Object.keys(rest);
  if (extra.length)
    throw new InvalidInputError(
      `Unknown field ${extra.map((f) => JSON.stringify(f)).join(', ')}: expected ClientId, Restart`,
    );
  if (typeof ClientId !== 'string' || !/^\S{1,64}$/.test(ClientId))
    throw new InvalidInputError(
      `ClientId (value ${JSON.stringify(ClientId ?? null)}) must be a client id`,
    );
  if (Restart !== undefined && typeof Restart !== 'boolean')
    throw new InvalidInputError(`Restart (value ${JSON.stringify(Restart)}) must be true or false`);
  return { ClientId, ...(Restart !== undefined ? { Restart } : {}) };
}
