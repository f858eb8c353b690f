import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { applyPatchOperations } from '@app/shared';
import { ConsentTypeWriter } from '../../services/consent-type-writer.service';
import type { ConsentTypeListDto } from '../../dto/consent-type.dto';
import { UpdateConsentTypeCommand } from './update-consent-type.command';

/** Applies JSON Patch operations to the consent type as GET returns it (without locale). */
@CommandHandler(UpdateConsentTypeCommand)
export class UpdateConsentTypeHandler implements ICommandHandler<UpdateConsentTypeCommand> {
  constructor(private readonly writer: ConsentTypeWriter) {}

  execute({
    clientId,
    userId,
    typeId,
    operations,
  }: UpdateConsentTypeCommand): Promise<ConsentTypeListDto> {
    return this.writer.change(clientId, userId, typeId, (wire) =>
      applyPatchOperations(wire, operations, ['TypeId', 'Edited']),
    );
  }
}
