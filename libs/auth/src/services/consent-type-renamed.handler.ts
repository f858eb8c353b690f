import { Logger } from '@nestjs/common';
import { EventsHandler, IEventHandler } from '@nestjs/cqrs';
import { ConsentTypeRenamedEvent } from '@app/shared';
import { TenantAdminService } from './tenant-admin.service';

/**
 * User groups limited to some consent types (data scope) name them: a rename adds the new
 * name wherever a former one is listed, so the group keeps seeing the type's consents.
 */
@EventsHandler(ConsentTypeRenamedEvent)
export class ScopeConsentTypeRenamedHandler implements IEventHandler<ConsentTypeRenamedEvent> {
  private readonly logger = new Logger('UserGroupScopes');

  constructor(private readonly admin: TenantAdminService) {}

  async handle({ clientId, formerNames, typeName }: ConsentTypeRenamedEvent): Promise<void> {
    try {
      await this.admin.addRenamedConsentType(clientId, formerNames, typeName);
    } catch (error) {
      this.logger.error(
        `Adding renamed consent type "${typeName}" to the user-group scopes of ${clientId} failed: ${
          error instanceof Error ? (error.stack ?? error.message) : String(error)
        }`,
      );
    }
  }
}
