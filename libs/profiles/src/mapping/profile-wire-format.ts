import type { ProfileWireFormat } from '../domain/profile-wire-format';
import { validateProfileBody } from '../dto/validate-profile-body';
import { toProfileDto } from './profile.mapper';

/** The wire shape of a profile for the domain's rules (see ProfileWireFormat). */
export const PROFILE_WIRE_FORMAT: ProfileWireFormat = {
  // Through JSON text: a plain, unshared copy the rules may change.
  render: (profileId, data, view) =>
    JSON.parse(JSON.stringify(toProfileDto(profileId, data, false, view))) as Record<
      string,
      unknown
    >,
  validate: (body) => validateProfileBody(body),
};
