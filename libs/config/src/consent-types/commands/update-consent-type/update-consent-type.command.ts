import { Command } from '@nestjs/cqrs';
import type { PatchOperationDto } from '../../../common/patch-operation.dto';
import type { ConsentTypeListDto } from '../../dto/consent-type.dto';

export class UpdateConsentTypeCommand extends Command<ConsentTypeListDto> {
  constructor(
    readonly clientId: string,
    readonly userId: string,
    readonly typeId: number,
    readonly operations: PatchOperationDto[],
  ) {
    super();
  }
}
