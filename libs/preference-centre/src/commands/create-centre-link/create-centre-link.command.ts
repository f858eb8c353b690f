import { Command } from '@nestjs/cqrs';
import type { CentreLinkDto, CreateCentreLinkDto } from '../../dto/centre-link.dto';

/** Signed links to a profile's preference centre page and one-click unsubscribe. */
export class CreateCentreLinkCommand extends Command<CentreLinkDto> {
  constructor(
    readonly clientId: string,
    readonly profileId: number,
    readonly body: CreateCentreLinkDto,
    /** The origin the links start with when PREFERENCE_CENTRE_BASE_URL is unset. */
    readonly requestOrigin: string,
    /** The api's route prefix ("/Profiles/v4"). */
    readonly prefix: string,
  ) {
    super();
  }
}
