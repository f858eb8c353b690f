import { Logger } from '@nestjs/common';
import { EventsHandler, IEventHandler } from '@nestjs/cqrs';
import { ConsentTypeRenamedEvent } from '../../common/cross-area';
import { RequiredConsents } from '../services/required-consents.service';

/**
 * A renamed consent type is shown under its current name in every filter that requires it.
 * Profile writes do not depend on it (the vocabulary resolves a filter's former name to the
 * type), so a failure here is logged: the next rename or PUT of the list corrects it.
 */
@EventsHandler(ConsentTypeRenamedEvent)
export class ConsentTypeRenamedHandler implements IEventHandler<ConsentTypeRenamedEvent> {
  private readonly logger = new Logger(ConsentTypeRenamedHandler.name);

  constructor(private readonly requiredConsents: RequiredConsents) {}

  async handle({ clientId, formerNames, typeName }: ConsentTypeRenamedEvent): Promise<void> {
    try {
      for (const formerName of formerNames) {
        await this.requiredConsents.renameEverywhere(clientId, formerName, typeName);
      }
    } catch (error) {
      this.logger.error(
        `Renaming consent type "${typeName}" in the filters of ${clientId} failed: ${
          error instanceof Error ? (error.stack ?? error.message) : String(error)
        }`,
      );
    }
  }
}
