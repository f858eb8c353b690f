import { Injectable } from '@nestjs/common';
import { EventBus, QueryBus } from '@nestjs/cqrs';
import { ApiError } from '@app/shared';
import { ConfigBookkeeping } from '../common/config-bookkeeping.service';
import { ConsentTypeDeactivatedEvent, IsConsentTypeRequiredQuery } from '../common/cross-area';
import {
  editedOnUpdate,
  nameKeyOf,
  SAVE_ATTEMPTS,
  validateEntry,
} from '../picklists/entry-request';
import { ConfigEventOutbox } from './config-event-outbox.service';
import { consentTypeProblems, missingVersions, repeatedVersion } from './domain/consent-type.rules';
import { toStoredConsentType } from './consent-type.input';
import { toConsentTypeDto } from './consent-type.mapper';
import { ConsentTypeRepository } from './consent-type.repository';
import { CONSENT_TYPE_KIND, type StoredConsentType } from './consent-type.schema';
import { ConsentTypeDto, type ConsentTypeListDto } from './dto/consent-type.dto';

/**
 * Changes one consent type: the change (a PATCH, a new version) is applied to its wire
 * shape, the result validated like a create and stored as the type's next revision, unless
 * another writer stored that revision first (then the change starts over on the fresh
 * revision). After the save: the name claims, the change stamp, one outbox event per new
 * version and, when the type was deactivated, ConsentTypeDeactivatedEvent for programs.
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
    for (let attempt = 0; attempt < SAVE_ATTEMPTS; attempt++) {
      const stored = await this.repository.findOne(clientId, typeId);
      if (!stored) throw ApiError.notFound(`Consent type ${typeId} was not found`);

      const dto = await validateEntry(ConsentTypeDto, apply(toConsentTypeDto(stored)));
      await this.checkChange(clientId, stored, dto);

      const name = dto.TypeName.trim();
      const renamed = nameKeyOf(name) !== stored.nameKey;
      if (
        renamed &&
        !(await this.bookkeeping.claimName(clientId, CONSENT_TYPE_KIND, name, typeId))
      ) {
        throw ApiError.conflict(`Consent type "${name}" already exists`);
      }
      const now = new Date();
      const {
        stored: next,
        published,
        publishedAt,
      } = toStoredConsentType(dto, {
        clientId,
        typeId,
        revision: stored.revision + 1,
        edited: editedOnUpdate(stored.Edited, userId, now),
        userId,
        now,
        previous: stored,
      });
      if (await this.repository.saveRevision(next)) {
        if (renamed) {
          await this.bookkeeping.releaseName(clientId, CONSENT_TYPE_KIND, stored.TypeName, typeId);
        }
        await this.bookkeeping.touch(clientId);
        await this.outbox.recordConsentVersions(
          clientId,
          typeId,
          next.TypeName,
          published,
          publishedAt,
        );
        if (stored.IsActive !== false && !next.IsActive) {
          // Filters name the type as it was stored when they were configured.
          this.events.publish(new ConsentTypeDeactivatedEvent(clientId, stored.TypeName));
        }
        return { ConsentTypes: [toConsentTypeDto(next)] };
      }
      // Another writer saved first: give up the new name unless that writer took it too.
      const current = await this.repository.findOne(clientId, typeId);
      if (renamed && current?.nameKey !== nameKeyOf(name)) {
        await this.bookkeeping.releaseName(clientId, CONSENT_TYPE_KIND, name, typeId);
      }
    }
    throw ApiError.conflict(`Consent type ${typeId} is being changed by others; retry`);
  }

  private async checkChange(
    clientId: string,
    stored: StoredConsentType,
    dto: ConsentTypeDto,
  ): Promise<void> {
    const problems = consentTypeProblems(dto, '');
    if (problems.length) throw ApiError.badRequest(problems.join('; '));
    const versions = dto.Versions ?? [];
    const repeated = repeatedVersion(versions);
    if (repeated !== null) {
      throw ApiError.conflict(
        `Consent type "${stored.TypeName}" already has version ${JSON.stringify(repeated)}`,
      );
    }
    const missing = missingVersions(stored.Versions, versions);
    if (missing.length) {
      throw ApiError.badRequest(
        `Invalid Versions: version ${JSON.stringify(missing[0])} of consent type "${stored.TypeName}" ` +
          'is missing; a published version is never removed or renamed (set its IsActive to false)',
      );
    }
    const channelBefore = stored.ChannelId ?? null;
    const channelAfter = dto.ChannelId ?? null;
    if (
      channelBefore !== channelAfter &&
      (await this.queries.execute(new IsConsentTypeRequiredQuery(clientId, stored.TypeName)))
    ) {
      throw ApiError.badRequest(
        `Invalid ChannelId (value ${JSON.stringify(channelAfter)}): consent type "${stored.TypeName}" ` +
          'is required by a filter (RequiredPreferenceConsents), so its ChannelId cannot be changed',
      );
    }
  }
}
