import { Logger } from '@nestjs/common';
import { EventsHandler, IEventHandler } from '@nestjs/cqrs';
import { ConsentTypeDeactivatedEvent } from '../../common/cross-area';
import { RequiredConsents } from '../services/required-consents.service';

/**
 * A deactivated consent type is no longer required by any filter of the client (the spec:
 * reactivating it does not restore the requirement).
 */
@EventsHandler(ConsentTypeDeactivatedEvent)
export class ConsentTypeDeactivatedHandler implements IEventHandler<ConsentTypeDeactivatedEvent> {
  private readonly logger = new Logger(ConsentTypeDeactivatedHandler.name);

  constructor(private readonly requiredConsents: RequiredConsents) {}

  async handle({ clientId, typeNames }: ConsentTypeDeactivatedEvent): Promise<void> {
    try {
      for (const typeName of typeNames) {
        await this.requiredConsents.removeEverywhere(clientId, typeName);
      }
    } catch (error) {
      this.logger.error(
        `Removing deactivated consent type "${typeNames[0]}" from the filters of ${clientId} failed: ${
          error instanceof Error ? (error.stack ?? error.message) : String(error)
        }`,
      );
    }
  }
}
