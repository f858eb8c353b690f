import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { ProfileSnapshots, viewOf } from '@app/profiles';
import { Clock, NotFoundError } from '@app/shared';
import { canSeeConfirmation } from '../../domain/confirmation-subject';
import type { ConfirmationListDto } from '../../dto/confirmation.dto';
import { toConfirmationDto } from '../../mapping/confirmation.mapper';
import { ConfirmationRepository } from '../../repositories/confirmation.repository';
import { ListConfirmationsQuery } from './list-confirmations.query';

/**
 * A profile's confirmations as the caller's user group may see them: only those of the
 * consent types (programs, for opt-ins) in its scope, none without read access to consents
 * (preferences) (as the profile's GET shows them).
 */
@QueryHandler(ListConfirmationsQuery)
export class ListConfirmationsHandler implements IQueryHandler<ListConfirmationsQuery> {
  constructor(
    private readonly profiles: ProfileSnapshots,
    private readonly confirmations: ConfirmationRepository,
    private readonly clock: Clock,
  ) {}

  async execute({ caller, profileId }: ListConfirmationsQuery): Promise<ConfirmationListDto> {
    const profile = await this.profiles.byId(caller.clientId, profileId);
    if (!profile) throw new NotFoundError(`Profile ${profileId} not found`);
    const view = viewOf(caller);
    const items = (await this.confirmations.list(caller.clientId, profileId)).filter((item) =>
      canSeeConfirmation(view, item),
    );
    const now = this.clock.now().getTime();
    return { Confirmations: items.map((item) => toConfirmationDto(item, now)) };
  }
}
