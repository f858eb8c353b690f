import { Delete, Get, HttpCode, Param } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import {
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
} from '@nestjs/swagger';
import { ApiAuth, type Caller, CurrentCaller, TenantController } from '@app/auth';
import { type RequestWindow, WriteWindow } from '@app/shared';
import { DeleteTagCommand } from './delete-tag/delete-tag.command';
import { TagCountsDto } from './tag-counts.dto';
import { GetTagCountsQuery } from './get-tag-counts/get-tag-counts.query';

@TenantController(':clientId/Tags', { tag: 'Configuration', badRequest: false })
export class TagsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get()
  @ApiAuth('configuration', 'read')
  @ApiOperation({
    summary: 'The tags of the account, each with the number of profiles carrying it',
    description:
      'A tag enters the account when a profile write first uses it. Names match case-insensitively.',
  })
  @ApiOkResponse({ type: TagCountsDto })
  list(@CurrentCaller() caller: Caller): Promise<TagCountsDto> {
    return this.queries.execute(new GetTagCountsQuery(caller.clientId));
  }

  @Delete(':tagName')
  @HttpCode(204)
  @ApiAuth('configuration', 'write')
  @ApiOperation({
    summary: 'Remove a tag from the account and from every profile, active or not',
    description:
      'Each profile carrying the tag gets a queued write that removes only that tag (visible in its Updates); the answer comes once all are accepted.',
  })
  @ApiNoContentResponse({ description: 'Removed' })
  @ApiNotFoundResponse({ description: 'The account has no such tag' })
  async delete(
    @CurrentCaller() caller: Caller,
    @Param('tagName') tagName: string,
    @WriteWindow() window: RequestWindow | null,
  ): Promise<void> {
    await this.commands.execute(
      new DeleteTagCommand(caller.clientId, caller.userId, tagName, window),
    );
  }
}
