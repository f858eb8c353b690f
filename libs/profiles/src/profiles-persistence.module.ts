import { Module } from '@nestjs/common';
import { ConfigurationReaderModule } from '@app/config';
import { settingsProvider, tenantScopedFeatures } from '@app/shared';
import { ProfileSettings } from './profile-settings';
import {
  AlternateIdClaim,
  AlternateIdClaimEnd,
  AlternateIdClaimEndSchema,
  AlternateIdClaimSchema,
} from './domain/alternate-id-claim.schema';
import {
  Profile,
  ProfileIdHint,
  ProfileIdHintSchema,
  ProfileSchema,
} from './domain/profile.schema';
import { ProfileWrite, ProfileWriteSchema } from './domain/profile-write.schema';
import { ProfileHistoryDoc, ProfileHistoryDocSchema } from './domain/profile-history.schema';
import { ProfileEventsDoc, ProfileEventsDocSchema } from './domain/profile-events.schema';
import { TagEntry, TagEntrySchema } from './domain/tag.schema';
import {
  ErasedIdentifier,
  ErasedIdentifierSchema,
  ErasureSecret,
  ErasureSecretSchema,
  ProfileErasure,
  ProfileErasureSchema,
} from './domain/profile-erasure.schema';
import { ProfileErasureRepository } from './persistence/profile-erasure.repository';
import { ErasedIdentifiers } from './erasure/erased-identifiers.service';
import { PendingProfile, PendingProfileSchema } from './domain/pending-profile.schema';
import { ProfileReadModel } from './read/profile-read-model.service';
import { ExpiryIndex } from './intake/expiry/expiry-index.service';
import { ProfileKeyIndex } from './read/search/profile-key-index.service';
import { RedisEpoch } from './read/redis-loss/redis-epoch.service';
import { SearchCandidates } from './read/search/search-candidates.service';
import { PendingProfileRepository } from './persistence/pending-profile.repository';
import { AlternateIdClaimRepository } from './persistence/alternate-id-claim.repository';
import { ProfileRepository } from './persistence/profile.repository';
import { ProfileWriteRepository } from './persistence/profile-write.repository';
import { ProfileHistoryRepository } from './persistence/profile-history.repository';
import { ProfileEventRepository } from './persistence/profile-event.repository';
import { TagRepository } from './persistence/tag.repository';
import { AlternateIdClaims } from './persistence/alternate-id-claims.service';
import { ExistingProfiles } from './persistence/existing-profiles.service';
import { ProfileUpserts } from './intake/profile-upserts.service';
import { ProfileEventRecorder } from './apply/profile-event-recorder.service';
import { ProfileWriteIntake } from './intake/profile-write-intake.service';
import { WriteFates } from './apply/write-fates.service';
import { WriteKeys } from './intake/write-keys.service';
import { WriteKeyRepository } from './persistence/write-key.repository';
import { ApplyJobScheduler } from './intake/apply-job-scheduler';
import { ProfileMergeRecord, ProfileMergeRecordSchema } from './domain/profile-merge-record.schema';
import { ProfileMergeRepository } from './persistence/profile-merge.repository';

const providers = [
  ProfileRepository,
  ProfileWriteRepository,
  PendingProfileRepository,
  ProfileReadModel,
  ExpiryIndex,
  ProfileKeyIndex,
  RedisEpoch,
  SearchCandidates,
  ProfileHistoryRepository,
  ProfileEventRepository,
  AlternateIdClaimRepository,
  TagRepository,
  AlternateIdClaims,
  ExistingProfiles,
  ProfileWriteIntake,
  WriteFates,
  WriteKeys,
  WriteKeyRepository,
  ProfileUpserts,
  ProfileEventRecorder,
  ProfileErasureRepository,
  ErasedIdentifiers,
  ApplyJobScheduler,
  ProfileMergeRepository,
];

/** The collections this module owns, and the services over them. Internal to libs/profiles. */
@Module({
  imports: [
    ConfigurationReaderModule,
    tenantScopedFeatures(
      [Profile, ProfileSchema],
      [ProfileIdHint, ProfileIdHintSchema],
      [ProfileWrite, ProfileWriteSchema],
      [ProfileHistoryDoc, ProfileHistoryDocSchema],
      [ProfileEventsDoc, ProfileEventsDocSchema],
      [AlternateIdClaim, AlternateIdClaimSchema],
      [AlternateIdClaimEnd, AlternateIdClaimEndSchema],
      [TagEntry, TagEntrySchema],
      [PendingProfile, PendingProfileSchema],
      [ProfileErasure, ProfileErasureSchema],
      [ErasedIdentifier, ErasedIdentifierSchema],
      [ErasureSecret, ErasureSecretSchema],
      [ProfileMergeRecord, ProfileMergeRecordSchema],
    ),
  ],
  providers: [settingsProvider(ProfileSettings), ...providers],
  exports: [...providers, ProfileSettings, ConfigurationReaderModule],
})
export class ProfilesPersistenceModule {}
