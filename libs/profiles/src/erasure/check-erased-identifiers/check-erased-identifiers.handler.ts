import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import {
  type Identifier,
  type IdentifierKind,
  nameOf,
  normaliseIdentifier,
} from '../../domain/erased-identifiers';
import type { ErasedIdentifierCheckResultDto } from '../data-subject.dto';
import { ErasedIdentifiers } from '../erased-identifiers.service';
import { CheckErasedIdentifiersQuery } from './check-erased-identifiers.query';

const KIND_NAMES: Record<IdentifierKind, string> = {
  email: 'Email',
  phone: 'PhoneNumber',
  alternateId: 'AlternateId',
  name: 'Name',
};

/**
 * Looks identifiers up among the hashes erasures left (docs/data-subject.md): each is
 * normalised as profiles match it, hashed under the client's secret and read by `_id`
 * (`<client>|h:<hash>`): one read per identifier, none at all for a client that never
 * erased (its secret does not exist).
 */
@QueryHandler(CheckErasedIdentifiersQuery)
export class CheckErasedIdentifiersHandler implements IQueryHandler<CheckErasedIdentifiersQuery> {
  constructor(private readonly erased: ErasedIdentifiers) {}

  async execute({
    clientId,
    body,
  }: CheckErasedIdentifiersQuery): Promise<ErasedIdentifierCheckResultDto> {
    const asked: { identifier: Identifier; shown: string }[] = [];
    const add = (identifier: Identifier | null, shown: string) => {
      if (identifier) asked.push({ identifier, shown });
    };
    for (const email of body.Emails ?? []) add(normaliseIdentifier('email', email), email);
    for (const phone of body.PhoneNumbers ?? []) add(normaliseIdentifier('phone', phone), phone);
    for (const pair of body.AlternateIds ?? [])
      add(
        normaliseIdentifier('alternateId', pair.AlternateId, pair.AlternateIdType),
        [pair.AlternateIdType, pair.AlternateId].join(': '),
      );
    for (const name of body.Names ?? []) {
      const full = nameOf(name);
      add(normaliseIdentifier('name', full), full.trim());
    }
    const matches = await this.erased.matches(
      clientId,
      asked.map(({ identifier }) => identifier),
    );
    const shownOf = new Map(asked.map(({ identifier, shown }) => [identifier, shown]));
    return {
      Checked: asked.length,
      Matches: matches.map((match) => ({
        Kind: KIND_NAMES[match.identifier.kind],
        Value: shownOf.get(match.identifier) ?? match.identifier.value,
        ProfileIds: match.profileIds,
        LastErasedUtcTime: new Date(match.lastErasedAt).toISOString(),
      })),
    };
  }
}
