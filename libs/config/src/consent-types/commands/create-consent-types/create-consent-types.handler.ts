import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ConflictError } from '@app/shared';
import { ConfigBookkeeping } from '../../../common/config-bookkeeping.repository';
import { editedOnCreate, refuseInvalidEntries } from '../../../common/entry-request';
import { ConfigEventOutbox } from '../../repositories/config-event-outbox.repository';
import { consentTypeProblems, repeatedVersion } from '../../domain/consent-type.rules';
import { toStoredConsentType } from '../../mapping/consent-type.input';
import { toConsentTypeDto } from '../../mapping/consent-type.mapper';
import { ConsentTypeRepository } from '../../repositories/consent-type.repository';
import type { ConsentTypeListDto } from '../../dto/consent-type.dto';
import { CreateConsentTypesCommand } from './create-consent-types.command';

/**
 * Creates every consent type of the body or none: all rules and names are checked first.
 * Each version of a created type is published: one outbox event per version.
 */
@CommandHandler(CreateConsentTypesCommand)
export class CreateConsentTypesHandler implements ICommandHandler<CreateConsentTypesCommand> {
  constructor(
    private readonly repository: ConsentTypeRepository,
    private readonly bookkeeping: ConfigBookkeeping,
    private readonly outbox: ConfigEventOutbox,
  ) {}

  async execute({
    clientId,
    userId,
    types,
  }: CreateConsentTypesCommand): Promise<ConsentTypeListDto> {
    refuseInvalidEntries('ConsentTypes', types, consentTypeProblems);
    types.forEach((type, index) => {
      const repeated = repeatedVersion(type.Versions ?? []);
      if (repeated !== null) {
        throw new ConflictError(
          `ConsentTypes[${index}].Versions names version ${JSON.stringify(repeated)} more than once`,
        );
      }
    });

    const names = types.map((type) => type.TypeName.trim());
    const ids = await this.bookkeeping.claimUniqueNames(clientId, names, this.repository);
    const now = new Date();
    const created = types.map((type, index) =>
      toStoredConsentType(type, {
        clientId,
        typeId: ids[index],
        revision: 1,
        edited: editedOnCreate(userId, now),
        userId,
        now,
      }),
    );
    // Events before the types (see ConsentTypeWriter.change): a crash in between leaves
    // events the version job drops, never a saved version without its event.
    for (const { stored, published, publishedAt } of created) {
      await this.outbox.recordConsentVersions(
        clientId,
        stored.typeId,
        stored.TypeName,
        published,
        publishedAt,
      );
    }
    await this.repository.insertAll(created.map(({ stored }) => stored));
    await this.bookkeeping.touch(clientId);
    return { ConsentTypes: created.map(({ stored }) => toConsentTypeDto(stored)) };
  }
}
