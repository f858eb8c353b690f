import { Body, HttpCode, Param, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { RENAME_GROUP_EXAMPLES } from '../../wire/profile.examples';
import {
  ApiBadRequestResponse,
  ApiBody,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
} from '@nestjs/swagger';
import { ApiAuth, type Caller, CurrentCaller, TenantController } from '@app/auth';
import { type RequestWindow, WriteWindow } from '@app/shared';
import { RenameGroupCommand } from './rename-group/rename-group.command';
import { RenameGroupDto, RenameGroupResultDto } from './rename-group.dto';

@TenantController(':clientId/Groups', { tag: 'Groups', badRequest: false })
export class GroupsController {
  constructor(private readonly commands: CommandBus) {}

  @Post(':groupType/Rename')
  @HttpCode(200)
  @ApiAuth('profiles', 'write')
  @ApiParam({
    name: 'groupType',
    description: 'The group type name (case-insensitive)',
    schema: { type: 'string', example: 'Household' },
  })
  @ApiOperation({
    summary: 'Rename an existing group on every profile in it (queued)',
    description:
      'Every profile storing group (groupType, OldGroupName) gets a queued write that renames it to NewGroupName, keeping IsPrimary and IsActive and stamping Edited; the profiles show UpdateStatus "Pending Update" until it is applied. When the new group already exists (some active profile is an active member), AllowMerge must be true: then a profile in both groups keeps one membership (the new group\'s, primary if either was) and the old group is gone. Group names compare case-insensitively. A membership added by a write accepted after this request is not renamed.',
  })
  @ApiOkResponse({ type: RenameGroupResultDto })
  @ApiBadRequestResponse({
    description:
      'Invalid body (the Message names the field), the same group named twice, or the new group exists and AllowMerge is not true',
  })
  @ApiNotFoundResponse({
    description: 'Unknown client, group type, or no active profile in the old group',
  })
  @ApiBody({ type: RenameGroupDto, examples: RENAME_GROUP_EXAMPLES })
  rename(
    @CurrentCaller() caller: Caller,
    @Param('groupType') groupType: string,
    @Body() body: RenameGroupDto,
    @WriteWindow() window: RequestWindow | null,
  ): Promise<RenameGroupResultDto> {
    return this.commands.execute(
      new RenameGroupCommand(
        caller.clientId,
        caller.userId,
        groupType,
        body.OldGroupName,
        body.NewGroupName,
        body.AllowMerge === true,
        window,
      ),
    );
  }
}
