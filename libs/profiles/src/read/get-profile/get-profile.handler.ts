import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { deepFreeze, withKnownJson } from '@app/shared';
import type { ProfileData } from '../../domain/profile-data.schema';
import type { ProfileDto } from '../../wire/profile.dto';
import { toPendingProfileDto, toProfileDto } from '../../wire/profile.mapper';
import { viewKey } from '../../domain/profile-view';
import { ExistingProfiles } from '../../persistence/existing-profiles.service';
import { GetProfileQuery } from './get-profile.query';

@QueryHandler(GetProfileQuery)
export class GetProfileHandler implements IQueryHandler<GetProfileQuery> {
  /**
   * Renderings of one stored data object (the read model's parsed entry, shared while its
   * appliedSeq is current) by status and view: a pure function of these, so an entry never
   * goes stale, and it goes with the data object it was made from. Frozen, and sent as its
   * known JSON text (mapping and serialising were a sixth of a GET's CPU).
   */
  private readonly rendered = new WeakMap<ProfileData, Map<string, ProfileDto>>();

  constructor(private readonly existing: ExistingProfiles) {}

  async execute({ clientId, profileId, view }: GetProfileQuery): Promise<ProfileDto> {
    // From the read model: no database command unless the entry must be rebuilt.
    const profile = await this.existing.get(clientId, profileId);
    if (!profile.data) return toPendingProfileDto(profileId);
    // UpdateStatus: Pending Update while any accepted write is not yet applied.
    const pending = profile.acceptedSeq > profile.appliedSeq;
    const key = `${pending ? 'p' : 'c'}${viewKey(view)}`;
    let renderings = this.rendered.get(profile.data);
    const known = renderings?.get(key);
    if (known) return known;
    const dto = deepFreeze(toProfileDto(profileId, profile.data, pending, view));
    if (!renderings) this.rendered.set(profile.data, (renderings = new Map()));
    renderings.set(key, withKnownJson(dto, JSON.stringify(dto)));
    return dto;
  }
}
