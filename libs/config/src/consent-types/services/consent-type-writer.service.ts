import { Injectable } from '@nestjs/common';
import { EventBus, QueryBus } from '@nestjs/cqrs';
import { ConflictError, InvalidInputError, textKey } from '@app/shared';
import { ConfigBookkeeping } from '../../common/config-bookkeeping.repository';
import {
  ConsentTypeDeactivatedEvent,
  ConsentTypeRenamedEvent,
  IsConsentTypeRequiredQuery,
} from '../../common/cross-area';
import { editedOnUpdate, validateInput } from '../../common/entry-request';
import { saveWithRetry } from '../../common/save-with-retry';
import { ConfigEventOutbox } from '../repositories/config-event-outbox.repository';
import {
  consentTypeProblems,
  missingVersions,
  repeatedVersion,
} from '../domain/consent-type.rules';
import { toStoredConsentType } from '../mapping/consent-type.input';
import { toConsentTypeDto } from '../mapping/consent-type.mapper';
import { ConsentTypeRepository } from '../repositories/consent-type.repository';
import { namesOf, type StoredConsentType } from '../domain/consent-type.schema';
import { ConsentTypeDto, type ConsentTypeListDto } from '../dto/consent-type.dto';

/**
 * Changes one consent type: the change (a PATCH, a new version) is applied to its wire
 * shape, the result validated like a create and stored as the type's next revision
 * (saveWithRetry). Before the save: one outbox event per new version (see `change`). After
 * it: the name claims, the change stamp and, when the type was deactivated,
 * ConsentTypeDeactivatedEvent for programs.
 */
@Injectable()
export class ConsentTypeWriter {
  constructor(
    private readonly repository: ConsentTypeRepository,
    private readonly bookkeeping: ConfigBookkeeping,
    private readonly outbox: ConfigEventOutbox,
    private readonly queries: QueryBus,
    private readonly events: EventBus,
  ) {}

  async change(
    clientId: string,
    userId: string,
    typeId: number,
    apply: (wire: ConsentTypeDto) => unknown,
  ): Promise<ConsentTypeListDto> {
    const { before, after } = await saveWithRetry({
      ...this.repository.revisionsOf(clientId, typeId),
      names: this.bookkeeping.renameClaims(clientId, this.repository, typeId),
      nameOf: (type) => type.TypeName,
      heldNames: namesOf,
      change: async (stored) => {
        const dto = validateInput(
          ConsentTypeDto,
          apply(toConsentTypeDto(stored)),
          'The patched entry',
        );
        await this.checkChange(clientId, stored, dto);
        const now = new Date();
        const result = toStoredConsentType(dto, {
          clientId,
          typeId,
          revision: stored.revision + 1,
          edited: editedOnUpdate(stored.Edited, userId, now),
          userId,
          now,
          previous: stored,
        });
        // The outbox events first (intent), then the save: a crash in between leaves an
        // event for a version the type does not hold, which the version job drops after a
        // grace period; the other order could lose the event of a saved version.
        await this.outbox.recordConsentVersions(
          clientId,
          typeId,
          result.stored.TypeName,
          result.published,
          result.publishedAt,
        );
        if (textKey(stored.TypeName) !== textKey(result.stored.TypeName)) {
          await this.outbox.recordConsentTypeRename(
            clientId,
            typeId,
            result.stored.revision,
            stored.TypeName,
            now,
          );
        }
        return result.stored;
      },
    });
    await this.bookkeeping.touch(clientId);
    if (textKey(before.TypeName) !== textKey(after.TypeName)) {
      this.events.publish(
        new ConsentTypeRenamedEvent(clientId, after.FormerNames ?? [], after.TypeName),
      );
    }
    if (before.IsActive !== false && !after.IsActive) {
      // Filters name the type as it was stored when they were configured: under any name.
      this.events.publish(new ConsentTypeDeactivatedEvent(clientId, namesOf(after)));
    }
    return { ConsentTypes: [toConsentTypeDto(after)] };
  }

  private async checkChange(
    clientId: string,
    stored: StoredConsentType,
    dto: ConsentTypeDto,
  ): Promise<void> {
    const problems = consentTypeProblems(dto, '');
    if (problems.length) throw new InvalidInputError(problems.join('; '));
    const versions = dto.Versions ?? [];
    const repeated = repeatedVersion(versions);
    if (repeated !== null) {
      throw new ConflictError(
        `Consent type "${stored.TypeName}" already has version ${JSON.stringify(repeated)}`,
      );
    }
    const missing = missingVersions(stored.Versions, versions);
    if (missing.length) {
      throw new InvalidInputError(
        `Invalid Versions: version ${JSON.stringify(missing[0])} of consent type "${stored.TypeName}" ` +
          'is missing; a published version is never removed or renamed (set its IsActive to false)',
      );
    }
    const channelBefore = stored.ChannelId ?? null;
    const channelAfter = dto.ChannelId ?? null;
    if (
      channelBefore !== channelAfter &&
      (await this.queries.execute(new IsConsentTypeRequiredQuery(clientId, namesOf(stored))))
    ) {
      throw new InvalidInputError(
        `Invalid ChannelId (value ${JSON.stringify(channelAfter)}): consent type "${stored.TypeName}" ` +
          'is required by a filter (RequiredPreferenceConsents), so its ChannelId cannot be changed',
      );
    }
  }
}
