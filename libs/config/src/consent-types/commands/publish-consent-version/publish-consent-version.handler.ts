import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ConsentTypeWriter } from '../../services/consent-type-writer.service';
import type { ConsentTypeListDto } from '../../dto/consent-type.dto';
import { PublishConsentVersionCommand } from './publish-consent-version.command';

/** Adds one version at the end of the type's Versions, exactly as PATCH add /Versions/- does. */
@CommandHandler(PublishConsentVersionCommand)
export class PublishConsentVersionHandler implements ICommandHandler<PublishConsentVersionCommand> {
  constructor(private readonly writer: ConsentTypeWriter) {}

  execute({
    clientId,
    userId,
    typeId,
    version,
  }: PublishConsentVersionCommand): Promise<ConsentTypeListDto> {
    return this.writer.change(clientId, userId, typeId, (wire) => ({
      ...wire,
      Versions: [...(wire.Versions ?? []), { ...version }],
    }));
  }
}
