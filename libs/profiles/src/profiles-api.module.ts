import { Module } from '@nestjs/common';
import { CreateProfileHandler } from './commands/create-profile/create-profile.handler';
import { DeleteProfileHandler } from './commands/delete-profile/delete-profile.handler';
import { UpdateProfileHandler } from './commands/update-profile/update-profile.handler';
import { PatchProfileHandler } from './commands/patch-profile/patch-profile.handler';
import { WriteProfileByAlternateIdHandler } from './commands/write-profile-by-alternate-id/write-profile-by-alternate-id.handler';
import { ProfileAlternateIdController } from './http/profile-alternate-id.controller';
import { ProfileController } from './http/profile.controller';
import { ProfileSearchController } from './http/profile-search.controller';
import { SearchProfilesHandler } from './queries/search-profiles/search-profiles.handler';
import { GetProfileByAlternateIdHandler } from './queries/get-profile-by-alternate-id/get-profile-by-alternate-id.handler';
import { TagsController } from './http/tags.controller';
import { DeleteTagHandler } from './commands/delete-tag/delete-tag.handler';
import { GetTagCountsHandler } from './queries/get-tag-counts/get-tag-counts.handler';
import { ProfilesPersistenceModule } from './profiles-persistence.module';
import { GetProfileUpdatesHandler } from './queries/get-profile-updates/get-profile-updates.handler';
import { GetProfileHandler } from './queries/get-profile/get-profile.handler';

/** The Profile Data API: controllers and the use cases they hand off to. */
@Module({
  imports: [ProfilesPersistenceModule],
  controllers: [
    ProfileAlternateIdController,
    ProfileSearchController,
    ProfileController,
    TagsController,
  ],
  providers: [
    CreateProfileHandler,
    UpdateProfileHandler,
    DeleteProfileHandler,
    PatchProfileHandler,
    WriteProfileByAlternateIdHandler,
    GetProfileByAlternateIdHandler,
    GetProfileHandler,
    GetProfileUpdatesHandler,
    GetTagCountsHandler,
    SearchProfilesHandler,
    DeleteTagHandler,
  ],
})
export class ProfilesApiModule {}
