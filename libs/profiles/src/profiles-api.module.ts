import { Module } from '@nestjs/common';
import { DURABLE_IDEMPOTENCY } from '@app/shared';
import { WriteKeys } from './services/write-keys.service';
import { CreateProfileHandler } from './commands/create-profile/create-profile.handler';
import { DeleteProfileHandler } from './commands/delete-profile/delete-profile.handler';
import { UpdateProfileHandler } from './commands/update-profile/update-profile.handler';
import { PatchProfileHandler } from './commands/patch-profile/patch-profile.handler';
import { WriteProfileByAlternateIdHandler } from './commands/write-profile-by-alternate-id/write-profile-by-alternate-id.handler';
import { ProfileAlternateIdController } from './http/profile-alternate-id.controller';
import { ProfileController } from './http/profile.controller';
import { ProfileDataSubjectController } from './http/profile-data-subject.controller';
import { EraseProfileHandler } from './commands/erase-profile/erase-profile.handler';
import { ExportProfileHandler } from './queries/export-profile/export-profile.handler';
import { GetErasureHandler } from './queries/get-erasure/get-erasure.handler';
import { CheckErasedIdentifiersHandler } from './queries/check-erased-identifiers/check-erased-identifiers.handler';
import { ProfileSearchController } from './http/profile-search.controller';
import { SearchProfilesHandler } from './queries/search-profiles/search-profiles.handler';
import { GetProfileByAlternateIdHandler } from './queries/get-profile-by-alternate-id/get-profile-by-alternate-id.handler';
import { TagsController } from './http/tags.controller';
import { DeleteTagHandler } from './commands/delete-tag/delete-tag.handler';
import { GetTagCountsHandler } from './queries/get-tag-counts/get-tag-counts.handler';
import { ProfilesPersistenceModule } from './profiles-persistence.module';
import { GetProfileUpdatesHandler } from './queries/get-profile-updates/get-profile-updates.handler';
import { GetProfileHandler } from './queries/get-profile/get-profile.handler';
import { GetProfileAsOfHandler } from './queries/get-profile-as-of/get-profile-as-of.handler';
import { ProfileHistoryController } from './http/profile-history.controller';
import { GetProfileHistoryHandler } from './queries/get-profile-history/get-profile-history.handler';
import { GroupsController } from './http/groups.controller';
import { GroupProfilesController } from './http/group-profiles.controller';
import { RenameGroupHandler } from './commands/rename-group/rename-group.handler';
import { SearchGroupProfilesHandler } from './queries/search-group-profiles/search-group-profiles.handler';
import { ProfileMergeController } from './http/profile-merge.controller';
import { GetMergeCandidatesHandler } from './queries/get-merge-candidates/get-merge-candidates.handler';
import { MergeProfilesHandler } from './commands/merge-profiles/merge-profiles.handler';

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
