import type { ProfileData } from './profile-data.schema';
import type { ProfileBody } from './profile-shape';
import type { ProfileView } from './profile-view';

/**
 * The port through which profile rules see the wire shape of a profile: a PATCH applies
 * its operations to the profile as the writer sees it on the wire, and the user-group
 * scope compares a body with that shape. The mapping layer implements it
 * (`wire/profile-wire-format.ts`), so the domain imports nothing of the transport.
 */
export interface ProfileWireFormat {
  /**
   * The stored profile as a writer with `view` reads it: a plain, unshared JSON copy in the
   * shape of a body (what a PATCH edits, what the scope compares a body with).
   */
  render(profileId: number, data: ProfileData, view: ProfileView): ProfileBody;
  /** What a full profile body breaks of the wire contract (PUT's validation), in words. */
  validate(body: object): string[];
}
