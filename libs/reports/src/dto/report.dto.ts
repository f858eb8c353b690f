import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  CONSENT_COUNT_STATUSES,
  CONSENT_LEVELS,
  type ConsentCountStatus,
  type ConsentLevel,
  DAILY_EVENTS,
  type DailyEvent,
  type DncChannel,
  type MatchKind,
  PREFERENCE_STATUSES,
  PREFERENCE_TYPES,
  type PreferenceCountStatus,
  type PreferenceKind,
} from '../domain/report-keys';

/* The answers of the reports' routes (docs/reports.md, "Routes"). */

export const REPORT_STATUSES = ['Current', 'Rebuilding', 'Building', 'NotBuilt'] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];

const STATUS_DESCRIPTION =
  'Current: the counts are kept by every write. Rebuilding: a rebuild is under way (these are the counts it will replace). Building: the counts are being built for the first time or after a loss (empty until then). NotBuilt: never built (a rebuild has been asked for).';

export class ProfileCountDto {
  @ApiProperty({ description: 'The customer type (its configured name)' }) CustomerType: string;
  @ApiProperty({ type: 'integer', description: 'Active profiles (IsActive not false)' })
  Active: number;
  @ApiProperty({ type: 'integer', description: 'Profiles stored with IsActive false' })
  Inactive: number;
}

/** The meaning of MatchType, on each answer that carries it. */
const MATCH_TYPE_DESCRIPTION =
  "Expressed: stated by the person; Implied: inferred by a system (the preference's MatchType)";

export class ConsentCountDto {
  @ApiProperty({ description: "The consent type's current name" }) ConsentType: string;
  @ApiProperty({
    enum: CONSENT_LEVELS,
    description:
      'Where the consents are: Profile (profile-level consents) or on an active contact element: Email, Phone or Address',
  })
  Level: ConsentLevel;
  @ApiProperty({ description: 'The consent version (empty when none is stored)' })
  ConsentVersion: string;
  @ApiProperty({
    enum: CONSENT_COUNT_STATUSES,
    description:
      'The status: Granted (ConsentStatus 1), Denied (2), Revoked (3), NotSet (4); Expired: marked expired by the expiry job, whatever its status',
  })
  Status: ConsentCountStatus;
  @ApiProperty({ type: 'integer' }) Count: number;
}

export class PreferenceCountDto {
  @ApiProperty({ example: '7' }) ProgramId: string;
  @ApiPropertyOptional({ description: "The program's configured name" }) ProgramName?: string;
  @ApiProperty({ example: '12' }) FilterId: string;
  @ApiPropertyOptional({ description: "The filter's configured name" }) FilterName?: string;
  @ApiProperty({ example: 'Email' }) ChannelId: string;
  @ApiProperty({
    enum: PREFERENCE_TYPES,
    description: 'PreferenceType 1 (OptIn), 2 (OptOut), or None (no PreferenceType stored)',
  })
  PreferenceType: PreferenceKind;
  @ApiProperty({
    enum: PREFERENCE_STATUSES,
    description:
      'Archived: IsActive false (archived or deactivated); Expired: PreferenceStatus Expired',
  })
  Status: PreferenceCountStatus;
  @ApiProperty({ enum: ['Expressed', 'Implied'], description: MATCH_TYPE_DESCRIPTION })
  MatchType: MatchKind;
  @ApiProperty({ type: 'integer' }) Count: number;
}

export class DoNotContactCountDto {
  @ApiProperty({ example: '1' }) ListId: string;
  @ApiProperty({
    enum: ['Email', 'Phone'],
    description: "The list's channel: Email (email addresses) or Phone (phone numbers)",
  })
  ChannelId: DncChannel;
  @ApiProperty({
    type: 'integer',
    description: 'Active contact elements of active profiles the list marks',
  })
  ContactElements: number;
}

export class ReportCountsDto {
  @ApiProperty({ enum: REPORT_STATUSES, description: STATUS_DESCRIPTION }) Status: ReportStatus;
  @ApiPropertyOptional({ format: 'date-time', description: 'When the counts were last rebuilt' })
  BuiltAt?: string;
  @ApiProperty({
    type: 'integer',
    description:
      'Changes that could not be counted exactly since the last rebuild (a save that landed after a later one); above 0: rebuild',
  })
  Drift: number;
  @ApiProperty({ type: [ProfileCountDto] }) Profiles: ProfileCountDto[];
  @ApiProperty({ type: [ConsentCountDto] }) Consents: ConsentCountDto[];
  @ApiProperty({ type: [PreferenceCountDto] }) Preferences: PreferenceCountDto[];
  @ApiProperty({ type: [DoNotContactCountDto] }) DoNotContact: DoNotContactCountDto[];
}

const EVENT_DESCRIPTIONS: Record<DailyEvent, string> = {
  Grants: 'consents that became Granted (or were granted again on another version or date)',
  Denials: 'consents that became Denied',
  Revocations: 'consents that became Revoked',
  ConsentExpiries: 'consents marked expired',
  ConsentsMoved:
    "consents a merged profile brought to its survivor (new there, or taking the place of the survivor's by the merge's precedence): not counted as Grants, Denials or Revocations",
  OptIns: 'preferences that came into effect as opt-ins (new, reactivated, renewed, changed)',
  OptOuts: 'preferences that came into effect as opt-outs',
  PreferenceExpiries: 'preferences that expired',
  Archives: 'preferences archived or deactivated',
  PreferencesMoved:
    "preferences a merged profile brought to its survivor (new there, or taking the place of the survivor's): not counted as OptIns or OptOuts",
  DoNotContactMarks: 'contact elements newly marked by a do-not-contact list (per list)',
  ProfilesCreated: 'profiles created',
  ProfilesDeleted: 'profiles deleted',
  ProfilesErased: 'profiles erased (data-subject erasure)',
  ProfilesMerged:
    'profiles merged into another (absorbed): created minus deleted, erased and merged is the change in profiles',
};

export class DayCountsDto {
  @ApiProperty({ example: '2026-01-31', description: 'The UTC day' }) Date: string;
}
for (const event of DAILY_EVENTS) {
  ApiProperty({ type: 'integer', description: EVENT_DESCRIPTIONS[event] })(
    DayCountsDto.prototype,
    event,
  );
}

export class ReportSeriesDto {
  @ApiProperty({ enum: REPORT_STATUSES, description: STATUS_DESCRIPTION }) Status: ReportStatus;
  @ApiProperty({ example: '2026-01-01' }) From: string;
  @ApiProperty({ example: '2026-01-31' }) To: string;
  @ApiProperty({ type: [DayCountsDto], description: 'One entry per day, From to To' })
  Days: Array<DayCountsDto & Record<DailyEvent, number>>;
}

export class ReportPageLinkDto {
  @ApiProperty({ description: "The reporting page's signed link (no API credential needed)" })
  Url: string;
  @ApiProperty({ format: 'date-time' }) ExpiresAt: string;
}

export class ReportRebuildRequestDto {
  @ApiProperty({ description: 'The client whose counts to rebuild', example: 'demo' })
  ClientId: string;
  @ApiPropertyOptional({
    description: 'true: start over even when a rebuild is under way (else it goes on)',
  })
  Restart?: boolean;
}

export class ReportRebuildDto {
  @ApiProperty() ClientId: string;
  @ApiProperty({ enum: ['Queued'], description: 'The rebuild job was queued' }) Status: string;
}
