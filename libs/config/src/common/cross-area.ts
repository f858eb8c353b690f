import { Query } from '@nestjs/cqrs';

/*
 * Messages between areas of the configuration module, so that no area reads another's
 * collections. Each has exactly one handler, in the area named.
 */

/** Published by consent-types when a consent type is deactivated; programs drops it from filters. */
export class ConsentTypeDeactivatedEvent {
  constructor(
    readonly clientId: string,
    readonly typeName: string,
  ) {}
}

/** Answered by programs: does any filter require this consent type? */
export class IsConsentTypeRequiredQuery extends Query<boolean> {
  constructor(
    readonly clientId: string,
    readonly typeName: string,
  ) {
    super();
  }
}

/** What other areas may know of a consent type. */
export interface ConsentTypeSummary {
  TypeId: number;
  TypeName: string;
  IsActive: boolean;
  /** Contact element channel the type is bound to; absent for a profile-only type. */
  ChannelId?: string;
  Versions: { ConsentVersion: string; IsActive: boolean; ExpirationInDays?: number }[];
}

/** Answered by consent-types: the consent type of that name (case-insensitive), or null. */
export class FindConsentTypeQuery extends Query<ConsentTypeSummary | null> {
  constructor(
    readonly clientId: string,
    readonly typeName: string,
  ) {
    super();
  }
}
