import { Command } from '@nestjs/cqrs';
import type { PatchOperationDto } from '../../../common/patch-operation.dto';
import type { PicklistListDto } from '../../dto/picklist.dto';

export class UpdatePicklistCommand extends Command<PicklistListDto> {
  constructor(
    readonly clientId: string,
    readonly userId: string,
    readonly picklistId: number,
    readonly operations: PatchOperationDto[],
  ) {
    super();
  }
}
