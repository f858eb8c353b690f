import { Module } from '@nestjs/common';
import { ProfilesPersistenceModule } from './profiles-persistence.module';
import { ProfileHolders } from './services/profile-holders.service';
import { ProfileWriteQueue } from './services/profile-write-queue.service';
import { ProfileWriteChecks } from './services/profile-write-checks.service';

/**
 * What other modules' jobs and use cases may use of Profiles: find the holders of a value,
 * queue system writes, and check profile bodies as a write's acceptance does (the bulk
 * import's staging). Lifted into its own service, this module becomes an HTTP (holders) and
 * queue (writes) adapter behind the same two classes.
 */
@Module({
  imports: [ProfilesPersistenceModule],
  providers: [ProfileHolders, ProfileWriteQueue, ProfileWriteChecks],
  exports: [ProfileHolders, ProfileWriteQueue, ProfileWriteChecks],
})
export class ProfilePortsModule {}
