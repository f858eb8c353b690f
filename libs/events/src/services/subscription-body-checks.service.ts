import { Injectable } from '@nestjs/common';
import { type ClientVocabulary, ConfigurationReader } from '@app/config';
import { InvalidInputError, textKey } from '@app/shared';
import {
  type EventSelection,
  findRepeatedSelection,
  type SubscriptionFields,
} from '../domain/event-subscription';
import {
  belongsToEntity,
  eventTypesOf,
  FILTER_KIND_ENTITIES,
  FILTER_KIND_NAMES,
  FILTER_KINDS,
  type FilterKind,
} from '../domain/event-types';
import { targetUrlProblem } from '../domain/target-url';
import type { EventSelectionDto, EventSubscriptionBodyDto } from '../dto/event-subscription.dto';
import { EventsSettings } from '../events-settings';

const shown = (value: unknown) => (value === undefined ? 'missing' : JSON.stringify(value));

/**
 * What the DTO cannot check of a subscription body: the Url against the setting, each
 * EventType against its Entity, the lists against the client's configuration. Answers the
 * fields to store, with configured names in their configured spelling; throws 400 naming
 * the field and the value.
 */
@Injectable()
export class SubscriptionBodyChecks {
  constructor(
    private readonly reader: ConfigurationReader,
    private readonly settings: EventsSettings,
  ) {}

  async check(clientId: string, body: EventSubscriptionBodyDto): Promise<SubscriptionFields> {
    const url = body.Url.trim();
    const problem = targetUrlProblem(url, this.settings.allowPrivateTargets);
    if (problem) throw new InvalidInputError(`Invalid Url (value ${shown(body.Url)}): ${problem}`);
    for (const [index, selection] of body.Subscriptions.entries()) {
      if (!belongsToEntity(selection.EventType, selection.Entity)) {
        throw new InvalidInputError(
          `Invalid Subscriptions[${index}].EventType (value ${shown(selection.EventType)}): not an event type of Entity ${shown(selection.Entity)} (${[...eventTypesOf(selection.Entity), '*'].join(', ')})`,
        );
      }
    }
    const repeated = findRepeatedSelection(body.Subscriptions);
    if (repeated) {
      const [first, second] = repeated.map((i) => body.Subscriptions[i]);
      throw new InvalidInputError(
        `Invalid Subscriptions[${repeated[1]}] (Entity ${shown(second.Entity)}, EventType ${shown(second.EventType)}): covers events of Subscriptions[${repeated[0]}] (EventType ${shown(first.EventType)}); give each event once`,
      );
    }
    const vocabulary = await this.reader.vocabulary(clientId);
    return {
      name: body.Name.trim(),
      description: body.Description ?? null,
      localeId: body.LocaleID ?? null,
      url,
      selections: body.Subscriptions.map((selection, index) =>
        this.selection(vocabulary, selection, index),
      ),
      state: body.State ?? 'Paused',
      excludeData: body.ExcludeData ?? false,
      deliverPausedEvents: body.DeliverPausedEvents ?? false,
      alternateIdType: this.alternateIdType(vocabulary, body.AlternateIdType),
      deliveryFormat: body.DeliveryFormat ?? 'Standard',
    };
  }

  private selection(
    vocabulary: ClientVocabulary,
    dto: EventSelectionDto,
    index: number,
  ): EventSelection {
    const selection: EventSelection = { Entity: dto.Entity, EventType: dto.EventType };
    for (const kind of FILTER_KIND_NAMES) {
      const values = dto[kind];
      if (values === undefined || values === null) continue;
      const field = `Subscriptions[${index}].${kind}`;
      if (!FILTER_KIND_ENTITIES[kind].includes(dto.Entity)) {
        throw new InvalidInputError(
          `Invalid ${field} (value ${shown(values)}): only ${FILTER_KIND_ENTITIES[kind].join(' and ')} subscriptions take ${kind} (Entity is ${shown(dto.Entity)})`,
        );
      }
      const wildcard = FILTER_KINDS[kind];
      if (values.includes(wildcard)) {
        if (values.length > 1) {
          throw new InvalidInputError(
            `Invalid ${field} (value ${shown(values)}): ${wildcard} must stand alone`,
          );
        }
        selection[kind] = [wildcard];
        continue;
      }
      const resolved = values.map((value) => {
        const name = this.resolve(vocabulary, kind, value.trim());
        if (name === undefined) {
          throw new InvalidInputError(`Invalid ${field} (value ${shown(value)}): ${UNKNOWN[kind]}`);
        }
        return name;
      });
      // Repeats are dropped (names compare as the configuration does: case-insensitively).
      const seen = new Set<string>();
      selection[kind] = resolved.filter(
        (name) => !seen.has(textKey(name)) && seen.add(textKey(name)),
      );
    }
    return selection;
  }

  /** The value as the configuration spells it, or undefined when it names nothing. */
  private resolve(
    vocabulary: ClientVocabulary,
    kind: FilterKind,
    value: string,
  ): string | undefined {
    switch (kind) {
      case 'Filters': {
        // FilterIds are int32 per client; preferences carry them as strings.
        if (!/^\d{1,10}$/.test(value)) return undefined;
        const filter = vocabulary.filter(Number(value));
        return filter ? String(filter.FilterId) : undefined;
      }
      case 'ConsentTypes':
        // Inactive types are accepted: events of their stored consents still happen.
        return vocabulary.consentTypeName(value);
      case 'CustomFields':
        return vocabulary.customField(value)?.Name;
      case 'ContactTypes':
        // A fixed set, checked by the DTO.
        return value;
      case 'Groups':
        // Group names are free values of profiles (only group *types* are configured), so
        // nothing in the configuration can check them: kept as given.
        return value;
    }
  }

  private alternateIdType(
    vocabulary: ClientVocabulary,
    value: string | undefined | null,
  ): string | null {
    if (value === undefined || value === null) return null;
    const type = vocabulary.type('AlternateIdTypes', value);
    if (!type?.IsActive) {
      throw new InvalidInputError(
        `Invalid AlternateIdType (value ${shown(value)}): not an active alternate id type of the account`,
      );
    }
    return type.TypeName;
  }
}

const UNKNOWN: Record<FilterKind, string> = {
  Filters: 'not a FilterId of the account',
  ConsentTypes: 'not a consent type of the account',
  ContactTypes: 'not a contact type',
  Groups: 'not a group',
  CustomFields: 'not a custom field of the account',
};
