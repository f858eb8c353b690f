import { Module } from '@nestjs/common';
import { ProfilesPersistenceModule } from './profiles-persistence.module';
import { ProfileHolders } from './services/profile-holders.service';
import { ProfileWriteQueue } from './services/profile-write-queue.service';

/**
 * What other modules' jobs may use of Profiles: find the holders of a value and queue
 * system writes. Lifted into its own service, this module becomes an HTTP (holders) and
 * queue (writes) adapter behind the same two classes.
 */
@Module({
  imports: [ProfilesPersistenceModule],
  providers: [ProfileHolders, ProfileWriteQueue],
  exports: [ProfileHolders, ProfileWriteQueue],
})
export class ProfilePortsModule {}
