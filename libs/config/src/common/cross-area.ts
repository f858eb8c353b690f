import { Query } from '@nestjs/cqrs';

/*
 * Messages between areas of the configuration module, so that no area reads another's
 * collections. Each has exactly one handler, in the area named.
 */

/**
 * Published by consent-types when a consent type is deactivated; programs drops it from
 * filters. `typeNames`: its current and former names (a filter may name it by any).
 */
export class ConsentTypeDeactivatedEvent {
  constructor(
    readonly clientId: string,
    readonly typeNames: string[],
  ) {}
}

/** A consent type renamed: programs renames it in its filters (see @app/shared). */
export { ConsentTypeRenamedEvent } from '@app/shared';

/** Answered by programs: does any filter require this consent type (under any of `typeNames`)? */
export class IsConsentTypeRequiredQuery extends Query<boolean> {
  constructor(
    readonly clientId: string,
    readonly typeNames: string[],
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

/**
 * Answered by consent-types: the consent type of that name (case-insensitive; a former name
 * of a renamed type finds it too), or null.
 */
export class FindConsentTypeQuery extends Query<ConsentTypeSummary | null> {
  constructor(
    readonly clientId: string,
    readonly typeName: string,
  ) {
    super();
  }
}
