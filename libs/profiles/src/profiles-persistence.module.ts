import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { ConfigurationReaderModule } from '@app/config';
import { settingsProvider } from '@app/shared';
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
import { ProfileErasureRepository } from './repositories/profile-erasure.repository';
import { ErasedIdentifiers } from './services/erased-identifiers.service';
import { PendingProfile, PendingProfileSchema } from './domain/pending-profile.schema';
import { ProfileReadModel } from './read-model/profile-read-model.service';
import { ExpiryIndex } from './read-model/expiry-index.service';
import { ProfileKeyIndex } from './search-index/profile-key-index.service';
import { RedisEpoch } from './services/redis-epoch.service';
import { SearchCandidates } from './search-index/search-candidates.service';
import { PendingProfileRepository } from './repositories/pending-profile.repository';
import { AlternateIdClaimRepository } from './repositories/alternate-id-claim.repository';
import { ProfileRepository } from './repositories/profile.repository';
import { ProfileWriteRepository } from './repositories/profile-write.repository';
import { ProfileHistoryRepository } from './repositories/profile-history.repository';
import { ProfileEventRepository } from './repositories/profile-event.repository';
import { TagRepository } from './repositories/tag.repository';
import { AlternateIdClaims } from './services/alternate-id-claims.service';
import { ExistingProfiles } from './services/existing-profiles.service';
import { ProfileUpserts } from './services/profile-upserts.service';
import { ProfileEventRecorder } from './services/profile-event-recorder.service';
import { ProfileWriteIntake } from './services/profile-write-intake.service';
import { WriteFates } from './services/write-fates.service';
import { WriteKeys } from './services/write-keys.service';
import { WriteKeyRepository } from './repositories/write-key.repository';
import { ApplyJobScheduler } from './services/apply-job-scheduler';
import { ProfileMergeRecord, ProfileMergeRecordSchema } from './domain/profile-merge-record.schema';
import { ProfileMergeRepository } from './repositories/profile-merge.repository';

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
    MongooseModule.forFeature([
      { name: Profile.name, schema: ProfileSchema },
      { name: ProfileIdHint.name, schema: ProfileIdHintSchema },
      { name: ProfileWrite.name, schema: ProfileWriteSchema },
      { name: ProfileHistoryDoc.name, schema: ProfileHistoryDocSchema },
      { name: ProfileEventsDoc.name, schema: ProfileEventsDocSchema },
      { name: AlternateIdClaim.name, schema: AlternateIdClaimSchema },
      { name: AlternateIdClaimEnd.name, schema: AlternateIdClaimEndSchema },
      { name: TagEntry.name, schema: TagEntrySchema },
      { name: PendingProfile.name, schema: PendingProfileSchema },
      { name: ProfileErasure.name, schema: ProfileErasureSchema },
      { name: ErasedIdentifier.name, schema: ErasedIdentifierSchema },
      { name: ErasureSecret.name, schema: ErasureSecretSchema },
      { name: ProfileMergeRecord.name, schema: ProfileMergeRecordSchema },
    ]),
  ],
  providers: [settingsProvider(ProfileSettings), ...providers],
  exports: [...providers, ProfileSettings, ConfigurationReaderModule],
})
export class ProfilesPersistenceModule {}
