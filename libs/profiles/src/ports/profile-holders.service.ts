import { Injectable } from '@nestjs/common';
import type { ProfileData } from '../domain/profile-data.schema';
import { SearchCandidates } from '../read/search/search-candidates.service';

/** What another module is told of a profile it walks: ids, write position and data. */
export interface HeldProfile {
  clientId: string;
  profileId: number;
  /** The last write applied to `data` (system writes queued now come after it). */
  appliedSeq: number;
  data?: ProfileData;
}

/** Which stored value the holders hold: an email key, a phone's digits, consent-type keys. */
export type HeldValue =
  | { email: string }
  | { phone: string }
  /** textKeys of consent type names: a consent of any of them, anywhere on the profile. */
  | { consentTypes: string[] };

/** Paths of the consent keys (textKey of ConsentType), each indexed per client. */
const CONSENT_KEY_PATHS = [
  'data.Consents.Key',
  'data.Emails.Consents.Key',
  'data.PhoneNumbers.Consents.Key',
  'data.Addresses.Consents.Key',
];

/**
 * The port through which other modules' jobs find the profiles holding a value (a listed
 * email, a consent type), a page at a time in profile id order. Every holder is reached
 * (walks are not capped like users' searches); how they are found (the key index, or the
 * database while it is built) stays inside Profiles.
 */
@Injectable()
export class ProfileHolders {
  constructor(private readonly candidates: SearchCandidates) {}

  /** Up to `limit` active holders after `afterProfileId`; fewer means there are no more. */
  async page(
    clientId: string,
    value: HeldValue,
    afterProfileId: number,
    limit: number,
  ): Promise<HeldProfile[]> {
    const { keys, condition } = lookupOf(value);
    const page = await this.candidates.page(clientId, [keys], [condition], afterProfileId, limit, {
      capped: false,
    });
    return page.map(({ clientId, profileId, appliedSeq, data }) => ({
      clientId,
      profileId,
      appliedSeq,
      data,
    }));
  }
}

/** The search keys of the value (read/search/search-keys.ts) and the database fallback. */
function lookupOf(value: HeldValue): { keys: string[]; condition: Record<string, unknown> } {
  if ('email' in value)
    return { keys: [`email:${value.email}`], condition: { 'data.Emails.Key': value.email } };
  if ('phone' in value) {
    const digits = Number(value.phone);
    return {
      keys: [`phone:${digits}`],
      condition: { 'data.PhoneNumbers.PhoneNumberNumeric': digits },
    };
  }
  return {
    keys: value.consentTypes.map((key) => `consent:${key}`),
    condition: { $or: CONSENT_KEY_PATHS.map((path) => ({ [path]: { $in: value.consentTypes } })) },
  };
}
