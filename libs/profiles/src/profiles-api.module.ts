import { Module } from '@nestjs/common';
import { DURABLE_IDEMPOTENCY } from '@app/shared';
import { WriteKeys } from './intake/write-keys.service';
import { CreateProfileHandler } from './intake/create-profile/create-profile.handler';
import { DeleteProfileHandler } from './intake/delete-profile/delete-profile.handler';
import { UpdateProfileHandler } from './intake/update-profile/update-profile.handler';
import { PatchProfileHandler } from './intake/patch-profile/patch-profile.handler';
import { WriteProfileByAlternateIdHandler } from './intake/write-profile-by-alternate-id/write-profile-by-alternate-id.handler';
import { ProfileAlternateIdController } from './intake/profile-alternate-id.controller';
import { ProfileController } from './intake/profile.controller';
import { ProfileDataSubjectController } from './erasure/profile-data-subject.controller';
import { EraseProfileHandler } from './erasure/erase-profile/erase-profile.handler';
import { ExportProfileHandler } from './erasure/export-profile/export-profile.handler';
import { GetErasureHandler } from './erasure/get-erasure/get-erasure.handler';
import { CheckErasedIdentifiersHandler } from './erasure/check-erased-identifiers/check-erased-identifiers.handler';
import { ProfileSearchController } from './read/search/profile-search.controller';
import { SearchProfilesHandler } from './read/search/search-profiles/search-profiles.handler';
import { GetProfileByAlternateIdHandler } from './read/get-profile-by-alternate-id/get-profile-by-alternate-id.handler';
import { TagsController } from './intake/tags-groups/tags.controller';
import { DeleteTagHandler } from './intake/tags-groups/delete-tag/delete-tag.handler';
import { GetTagCountsHandler } from './intake/tags-groups/get-tag-counts/get-tag-counts.handler';
import { ProfilesPersistenceModule } from './profiles-persistence.module';
import { GetProfileUpdatesHandler } from './read/get-profile-updates/get-profile-updates.handler';
import { GetProfileHandler } from './read/get-profile/get-profile.handler';
import { GetProfileAsOfHandler } from './read/get-profile-as-of/get-profile-as-of.handler';
import { ProfileHistoryController } from './read/history/profile-history.controller';
import { GetProfileHistoryHandler } from './read/history/get-profile-history/get-profile-history.handler';
import { GroupsController } from './intake/tags-groups/groups.controller';
import { GroupProfilesController } from './read/search/group-profiles.controller';
import { RenameGroupHandler } from './intake/tags-groups/rename-group/rename-group.handler';
import { SearchGroupProfilesHandler } from './read/search/search-group-profiles/search-group-profiles.handler';
import { ProfileMergeController } from './merge/profile-merge.controller';
import { GetMergeCandidatesHandler } from './merge/get-merge-candidates/get-merge-candidates.handler';
import { MergeProfilesHandler } from './merge/merge-profiles/merge-profiles.handler';

/** The Profile Data API: controllers and the use cases they hand off to. */
@Module({
  imports: [ProfilesPersistenceModule],
  controllers: [
    ProfileAlternateIdController,
    GroupProfilesController,
    ProfileSearchController,
    ProfileHistoryController,
    ProfileDataSubjectController,
    ProfileController,
    ProfileMergeController,
    TagsController,
    GroupsController,
  ],
  providers: [
    CreateProfileHandler,
    UpdateProfileHandler,
    DeleteProfileHandler,
    EraseProfileHandler,
    ExportProfileHandler,
    GetErasureHandler,
    CheckErasedIdentifiersHandler,
    PatchProfileHandler,
    WriteProfileByAlternateIdHandler,
    GetProfileByAlternateIdHandler,
    GetProfileHandler,
    GetProfileAsOfHandler,
    GetProfileUpdatesHandler,
    GetProfileHistoryHandler,
    GetTagCountsHandler,
    SearchProfilesHandler,
    DeleteTagHandler,
    RenameGroupHandler,
    SearchGroupProfilesHandler,
    GetMergeCandidatesHandler,
    MergeProfilesHandler,
    // Idempotency-Key of the routes that queue a profile write (their guard asks for it).
    { provide: DURABLE_IDEMPOTENCY, useExisting: WriteKeys },
  ],
})
export class ProfilesApiModule {}
