import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { ProfileData, ProfileDataSchema } from './profile-data.schema';

export type ProfileState = 'pending' | 'active' | 'deleted';

@Schema({ _id: false })
export class LastWriteFailure {
  @Prop() seq: number;
  @Prop() reason: string;
  @Prop() at: Date;
}

/**
 * One profile of one client. `_id` is `<clientId>|<profileId>`: inserting it is how a
 * profile id is claimed, so two creates can never get the same id. The document is
 * created as a `pending` shell when a create is accepted, and `appliedSeq` says which
 * accepted writes (profile_writes) it already holds. A deleted profile stays as a
 * `deleted` tombstone without data, so its id is never handed out again.
 */
@Schema({ collection: 'profiles', versionKey: false, timestamps: true })
export class Profile {
  @Prop({ type: String }) _id: string;
  @Prop({ required: true }) clientId: string;
  @Prop({ required: true }) profileId: number;
  @Prop({ required: true, default: 'pending' }) state: ProfileState;
  /** Sequence number of the last write applied (0: none yet). */
  @Prop({ required: true, default: 0 }) appliedSeq: number;
  @Prop({ type: ProfileDataSchema }) data?: ProfileData;
  @Prop({ type: SchemaFactory.createForClass(LastWriteFailure) }) lastFailure?: LastWriteFailure;
  /** When a consent or preference of the profile is next due to expire (see nextExpiry). */
  @Prop({ type: Date }) nextExpiryAt?: Date;
  /** Set by the schema's timestamps: when the shell was inserted (its id claimed). */
  createdAt?: Date;
}

export const ProfileSchema = SchemaFactory.createForClass(Profile);
// Serves: profile listings and searches of one client (issue 4 adds the field indexes).
ProfileSchema.index({ clientId: 1, profileId: 1 });
// Serves: a profile by alternate id with matchInactive (profiles of a client holding a pair).
ProfileSchema.index({ clientId: 1, 'data.AlternateIds.Key': 1 });
// Serves: tag counts, tag deletion and the tag search (profiles of a client carrying a tag).
ProfileSchema.index({ clientId: 1, 'data.ProfileTags.Key': 1 });
// Serves: the profile search by phone (GET .../Profile/Phone, digits equality).
ProfileSchema.index({ clientId: 1, 'data.PhoneNumbers.PhoneNumberNumeric': 1 });
// Serves: the profile search by email (GET .../Profile/Email, normalised address equality).
ProfileSchema.index({ clientId: 1, 'data.Emails.Key': 1 });
// Serves: the custom-field searches (GET .../Profile/CustomFields[/SelectList], by field name).
ProfileSchema.index({ clientId: 1, 'data.CustomFields.Key': 1 });
// Serves: rename group and the group-profile searches (members of a group type + name).
ProfileSchema.index({ clientId: 1, 'data.Groups.Key': 1 });
// Serves: the consent-attribute search (GET .../Profile/Consent/Attributes: profiles holding a
// consent of the matching types, one index per container of the $or).
ProfileSchema.index({ clientId: 1, 'data.Consents.Key': 1 });
// Serves: the consent-attribute search (consents on emails).
ProfileSchema.index({ clientId: 1, 'data.Emails.Consents.Key': 1 });
// Serves: the consent-attribute search (consents on phone numbers).
ProfileSchema.index({ clientId: 1, 'data.PhoneNumbers.Consents.Key': 1 });
// Serves: the consent-attribute search (consents on addresses).
ProfileSchema.index({ clientId: 1, 'data.Addresses.Consents.Key': 1 });
// Serves: the preference-attribute search (GET .../Profile/Preference/Attributes: profiles with
// a preference attribute of that key, one index per container of the $or).
ProfileSchema.index({ clientId: 1, 'data.ProfilePreferences.PreferenceAttributes.Key': 1 });
// Serves: the preference-attribute search (preferences of emails).
ProfileSchema.index({ clientId: 1, 'data.Emails.EmailPreferences.PreferenceAttributes.Key': 1 });
// Serves: the preference-attribute search (preferences of phone numbers).
ProfileSchema.index({
  clientId: 1,
  'data.PhoneNumbers.PhonePreferences.PreferenceAttributes.Key': 1,
});
// Serves: the preference-attribute search (preferences of addresses).
ProfileSchema.index({
  clientId: 1,
  'data.Addresses.AddressPreferences.PreferenceAttributes.Key': 1,
});

// (The consent-expiry job finds due profiles through the ExpiryIndex in Redis, not a query.)
// (The new-consent-version job pages through a client's holders of a consent type with the
// consent-key indexes above.)

/** Highest profile id handed out per client: a hint for the next claim, not a counter. */
@Schema({ collection: 'profile_id_hints', versionKey: false })
export class ProfileIdHint {
  @Prop({ type: String }) _id: string;
  @Prop({ required: true }) last: number;
}
export const ProfileIdHintSchema = SchemaFactory.createForClass(ProfileIdHint);
