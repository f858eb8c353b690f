import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { ConfigurationReader } from '@app/config';
import { ProfileSnapshots } from '@app/profiles';
import { Clock } from '@app/shared';
import { buildCentrePage, type CentrePage } from '../../domain/centre-page';
import { GetCentrePageQuery } from './get-centre-page.query';

/**
 * The page's content: the profile from the read model (as GET reads it: no engine command
 * when warm) and the client's cached configuration texts. A profile not created yet (its
 * first write pending) or inactive shows as gone.
 */
@QueryHandler(GetCentrePageQuery)
export class GetCentrePageHandler implements IQueryHandler<GetCentrePageQuery> {
  constructor(
    private readonly profiles: ProfileSnapshots,
    private readonly configuration: ConfigurationReader,
    private readonly clock: Clock,
  ) {}

  async execute({ clientId, profileId }: GetCentrePageQuery): Promise<CentrePage | null> {
    const [snapshot, presentation] = await Promise.all([
      this.profiles.byId(clientId, profileId),
      this.configuration.presentation(clientId),
    ]);
    if (!snapshot?.data || snapshot.data.IsActive === false) return null;
    return buildCentrePage(snapshot.data, presentation, this.clock.now());
  }
}
