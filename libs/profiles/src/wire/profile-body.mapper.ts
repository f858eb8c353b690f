import type { ProfileBody } from '../domain/profile-shape';
import type { ProfileDto } from './profile.dto';

/**
 * A profile request's body (validated against ProfileDto) as the domain's body: the one
 * seam where the wire type enters the domain. ProfileDto is the wire form of ProfileBody,
 * so the compiler checks the fit here and no cast is needed on either side.
 */
export function profileBodyOf(dto: ProfileDto): ProfileBody {
  return dto;
}
