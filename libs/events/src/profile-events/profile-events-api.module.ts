import { Module } from '@nestjs/common';
import { ProfilePortsModule } from '@app/profiles';
import { GetProfileEventsHandler } from './get-profile-events.handler';
import { ProfileEventsController } from './profile-events.controller';

/**
 * Retrieval of a profile's events (docs/events.md, "Retrieval by profile"), read through
 * Profiles' ProfileEventFeed port: this module reads no profile collection itself.
 */
@Module({
  imports: [ProfilePortsModule],
  controllers: [ProfileEventsController],
  providers: [GetProfileEventsHandler],
})
export class ProfileEventsApiModule {}
