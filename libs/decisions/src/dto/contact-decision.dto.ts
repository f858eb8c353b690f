import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/*
 * The wire shapes of the contact decisions (docs/decisions.md). The batch body is read as
 * sent and checked by hand (checkQuestion), so that a message can quote each value.
 */

/** Questions one batch may ask. */
export const MAX_QUESTIONS = 1000;

/** What each reason code means (docs/decisions.md has the table of cases). */
const REASON_CODE_MEANINGS =
  'PendingWrite (Note): a write of the profile is accepted and not applied yet; ' +
  'ProfileNotFound: no profile has the id or alternate id; ProfileInactive: the profile is inactive; ' +
  'NoProfile: no active profile holds the bare email address or phone number; ' +
  'ElementNotFound: the profile has no such contact element; ElementInactive: the element is inactive; ' +
  'DoNotContact: a do-not-contact list holds the value; ProgramInactive / FilterInactive: the program or filter is inactive; ' +
  'NoPreference: no preference of the program on the channel; PreferenceArchived: the preference is archived; ' +
  'OptedIn (Allow): an opt-in (PreferenceType 1); OptedOut: an opt-out (PreferenceType 2); ' +
  'GpcOptOut: an opt-out recorded from a Global Privacy Control signal; PreferenceTypeUnset: the preference has no PreferenceType; ' +
  'PreferenceExpired: past its ExpirationDate; ConsentGranted (Allow): a required consent is Granted; ' +
  'ConsentMissing: a required consent is not held; ConsentDenied / ConsentRevoked / ConsentNotSet: a required consent has that status; ' +
  'ConsentExpired: a required consent is expired; ' +
  "AwaitingConfirmation: a required consent was granted, or the preference opted in on a filter requiring confirmation, and awaits the person's confirmation from their mailbox (double opt-in, docs/double-opt-in.md)";

export const REASON_CODES = [
  'PendingWrite',
  'ProfileNotFound',
  'ProfileInactive',
  'NoProfile',
  'ElementNotFound',
  'ElementInactive',
  'DoNotContact',
  'ProgramInactive',
  'FilterInactive',
  'NoPreference',
  'PreferenceArchived',
  'OptedIn',
  'OptedOut',
  'GpcOptOut',
  'PreferenceTypeUnset',
  'PreferenceExpired',
  'ConsentGranted',
  'ConsentMissing',
  'ConsentDenied',
  'ConsentRevoked',
  'ConsentNotSet',
  'ConsentExpired',
  'AwaitingConfirmation',
] as const;

export class ContactQuestionDto {
  @ApiPropertyOptional({
    type: 'integer',
    format: 'int32',
    minimum: 1,
    description:
      'The profile asked about (or AlternateIdType + AlternateId, or a bare EmailAddress / PhoneNumber)',
    example: 1042,
  })
  ProfileId?: number;

  @ApiPropertyOptional({
    description: 'With AlternateId: the profile holding the pair',
    example: 'CRM',
  })
  AlternateIdType?: string;

  @ApiPropertyOptional({
    description: 'With AlternateIdType: the profile holding the pair',
    example: 'C-77',
  })
  AlternateId?: string;

  @ApiPropertyOptional({
    description:
      "Channel Email: without a profile, the bare address (every profile holding it is asked, and the do-not-contact lists); with one, which of its emails (default: the profile's default active email)",
    example: 'pat@example.com',
  })
  EmailAddress?: string;

  @ApiPropertyOptional({
    description:
      "Channels Phone and Text/SMS: the bare number, or which of the profile's phones (default: its default active phone)",
    example: '+1 555 010 0001',
  })
  PhoneNumber?: string;

  @ApiProperty({
    minLength: 1,
    description: 'Email, Phone, Text/SMS (or Text, SMS), Mail or Solicit, any letter case',
    example: 'Email',
  })
  ChannelId: string;

  @ApiProperty({
    minLength: 1,
    description:
      "The program's Id (not a Do Not Contact program: listings are part of every answer)",
    example: '7',
  })
  ProgramId: string;

  @ApiPropertyOptional({
    description:
      'A filter of the program on the channel; absent: every filter of the program on the channel, one allowing preference suffices',
    example: '12',
  })
  FilterId?: string;

  @ApiPropertyOptional({
    description: 'A consent type that must also be Granted (beside those the preference requires)',
    example: 'Marketing',
  })
  ConsentType?: string;
}

export class ContactDecisionsRequestDto {
  @ApiProperty({
    type: [ContactQuestionDto],
    minItems: 1,
    maxItems: MAX_QUESTIONS,
    description: `1 to ${MAX_QUESTIONS} questions, answered in order`,
  })
  Questions: ContactQuestionDto[];
}

export class ReasonContactDto {
  @ApiPropertyOptional({ example: 'pat@example.com' }) EmailAddress?: string;
  @ApiPropertyOptional({ example: '+1 555 010 0001' }) PhoneNumber?: string;
  @ApiPropertyOptional({ example: 'Home' }) AddressType?: string;
  @ApiPropertyOptional({ example: '1 Main St' }) Address1?: string;
  @ApiPropertyOptional({ example: '02134' }) PostalCode?: string;
}

export class ReasonPreferenceDto {
  @ApiPropertyOptional({ example: '7' }) ProgramId?: string;
  @ApiPropertyOptional({ example: 'Email' }) ChannelId?: string;
  @ApiPropertyOptional({ example: '12' }) FilterId?: string;
  @ApiProperty({
    enum: ['Expressed', 'Implied'],
    description: 'Implied: inferred by a system (MatchType Implied); Expressed otherwise',
    example: 'Expressed',
  })
  MatchType: 'Expressed' | 'Implied';
  @ApiPropertyOptional({ type: 'integer', description: '1 opt-in, 2 opt-out', example: 1 })
  PreferenceType?: number;
  @ApiPropertyOptional({ example: 'Active' }) PreferenceStatus?: string;
  @ApiPropertyOptional({ format: 'date-time', example: '2027-01-01T00:00:00.000Z' })
  ExpirationDate?: string;
  @ApiProperty({ description: 'false: archived', example: true }) IsActive: boolean;
  @ApiPropertyOptional({
    enum: ['OptOut', 'OptInConfirmed'],
    description:
      'The reserved attribute $GlobalPrivacyControl of the preference: OptOut, written because the browser sent a Global Privacy Control signal (reason GpcOptOut); OptInConfirmed, an opt-in the person confirmed while it did (docs/preference-centre.md)',
    example: 'OptOut',
  })
  GlobalPrivacyControl?: 'OptOut' | 'OptInConfirmed';
}

export class ReasonConsentDto {
  @ApiPropertyOptional({
    description: "Absent when the caller's user group may not see the consent type (Hidden true)",
    example: 'Marketing',
  })
  ConsentType?: string;
  @ApiPropertyOptional({
    description: "true: a consent type outside the caller's user group: only its effect is shown",
    example: false,
  })
  Hidden?: boolean;
  @ApiPropertyOptional({
    type: [String],
    enum: ['Association', 'Filter', 'Question'],
    description:
      "Why it is needed: Filter (the filter's RequiredPreferenceConsents), Association (the preference's ConsentAssociations), Question (the question's ConsentType)",
    example: ['Filter'],
  })
  RequiredBy?: ('Association' | 'Filter' | 'Question')[];
  @ApiPropertyOptional({
    type: 'integer',
    description: 'Granted 1, Denied 2, Revoked 3, NotSet 4',
    example: 1,
  })
  ConsentStatus?: number;
  @ApiPropertyOptional({ example: '1.0' }) ConsentVersion?: string;
  @ApiPropertyOptional({ format: 'date-time', example: '2026-01-01T00:00:00.000Z' })
  ConsentDate?: string;
  @ApiPropertyOptional({ format: 'date-time', example: '2027-01-01T00:00:00.000Z' })
  ExpirationDate?: string;
  @ApiPropertyOptional({ example: false }) Expired?: boolean;
  @ApiPropertyOptional({
    description: 'A newer version of the type awaits re-consent',
    example: false,
  })
  UpdatedVersionPending?: boolean;
}

export class ReasonListingDto {
  @ApiProperty({ type: 'integer', format: 'int32', example: 1 }) ListId: number;
  @ApiProperty({ example: 'Suppression' }) ListName: string;
  @ApiPropertyOptional({ example: 'Complaint' }) ReasonCode?: string;
  @ApiProperty({ format: 'date-time', example: '2026-01-01T00:00:00.000Z' }) ListedAt: string;
  @ApiProperty({
    description:
      'false: the listing has not yet reached every profile holding the value (the propagation job)',
    example: true,
  })
  Propagated: boolean;
}

export class PendingWriteDto {
  @ApiProperty({
    type: 'integer',
    description: 'Sequence number of the last applied write',
    example: 3,
  })
  AppliedSeq: number;
  @ApiProperty({
    type: 'integer',
    description: 'Sequence number of the last accepted write',
    example: 4,
  })
  AcceptedSeq: number;
}

export class DecisionReasonDto {
  @ApiProperty({ enum: REASON_CODES, example: 'OptedIn', description: REASON_CODE_MEANINGS })
  Code: (typeof REASON_CODES)[number];
  @ApiProperty({
    enum: ['Allow', 'Deny', 'Note'],
    description: 'Allow: permits the contact; Deny: forbids it; Note: informs only',
    example: 'Allow',
  })
  Effect: 'Allow' | 'Deny' | 'Note';
  @ApiProperty({ example: 'Opted in on filter 12' }) Message: string;
  @ApiPropertyOptional({ type: 'integer', format: 'int32', example: 1042 }) ProfileId?: number;
  @ApiPropertyOptional({
    enum: ['Profile', 'ContactElement'],
    description:
      'Where the reason was found: Profile (the profile or its profile-level items) or ContactElement (an email, phone or address)',
    example: 'ContactElement',
  })
  Level?: 'Profile' | 'ContactElement';
  @ApiPropertyOptional({
    enum: ['Emails', 'PhoneNumbers', 'Addresses'],
    description:
      "With Level ContactElement: the profile's list holding the element, Emails, PhoneNumbers or Addresses",
    example: 'Emails',
  })
  ContactList?: string;
  @ApiPropertyOptional({ type: ReasonContactDto }) Contact?: ReasonContactDto;
  @ApiPropertyOptional({ type: ReasonPreferenceDto }) Preference?: ReasonPreferenceDto;
  @ApiPropertyOptional({ type: ReasonConsentDto }) Consent?: ReasonConsentDto;
  @ApiPropertyOptional({ type: [ReasonListingDto] }) DoNotContactLists?: ReasonListingDto[];
  @ApiPropertyOptional({
    description: 'Whether the profile carries the do-not-contact mark of the listing',
    example: true,
  })
  MarkedOnProfile?: boolean;
  @ApiPropertyOptional({ type: PendingWriteDto }) PendingWrite?: PendingWriteDto;
  @ApiProperty({
    type: String,
    nullable: true,
    description:
      'The history entry that proves the reason (`<clientId>|<profileId>|<seq>|<n>`, the n-th entry of write seq); null when none is known (configuration, a missing item, or an item last changed before the service kept these references)',
    example: 'acme|1042|3|1',
  })
  HistoryEntryId: string | null;
}

export class ContactDecisionDto {
  @ApiProperty({ description: 'Whether the contact is allowed now', example: true })
  Allowed: boolean;
  @ApiProperty({
    type: [Number],
    description: 'The profiles the answer is about (a bare value: every active profile holding it)',
    example: [1042],
  })
  ProfileIds: number[];
  @ApiProperty({ description: 'The channel asked, canonical', example: 'Email' }) ChannelId: string;
  @ApiProperty({ example: '7' }) ProgramId: string;
  @ApiPropertyOptional({ example: '12' }) FilterId?: string;
  @ApiPropertyOptional({ example: 'Marketing' }) ConsentType?: string;
  @ApiPropertyOptional({ example: 'pat@example.com' }) EmailAddress?: string;
  @ApiPropertyOptional({ example: '+1 555 010 0001' }) PhoneNumber?: string;
  @ApiProperty({ type: [DecisionReasonDto], description: 'Why: every rule that applied' })
  Reasons: DecisionReasonDto[];
}

export class ContactDecisionsDto {
  @ApiProperty({ type: [ContactDecisionDto], description: 'One per question, in order' })
  Decisions: ContactDecisionDto[];
}
