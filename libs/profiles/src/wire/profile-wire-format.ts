import type { ProfileWireFormat } from '../domain/profile-wire-format';
import type { ProfileDto } from './profile.dto';
import { validateProfileBody } from './validate-profile-body';
import { toProfileDto } from './profile.mapper';

/** The wire shape of a profile for the domain's rules (see ProfileWireFormat). */
export const PROFILE_WIRE_FORMAT: ProfileWireFormat = {
  // Through JSON text: a plain, unshared copy the rules may change.
  render: (profileId, data, view) => {
    const copy: ProfileDto = JSON.parse(JSON.stringify(toProfileDto(profileId, data, false, view)));
    return copy;
  },
  validate: (body) => validateProfileBody(body),
};
