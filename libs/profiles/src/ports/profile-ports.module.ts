import { Module } from '@nestjs/common';
import { ProfilesPersistenceModule } from '../profiles-persistence.module';
import { ProfileHolders } from './profile-holders.service';
import { ProfileWriteQueue } from './profile-write-queue.service';
import { ProfileWriteChecks } from './profile-write-checks.service';
import { ProfileImportWrites } from './profile-import-writes.service';
import { ProfileExportReader } from './profile-export-reader.service';
import { ProfileEventFeed } from './profile-event-feed.service';
import { ProfileSnapshots } from './profile-snapshots.service';
import { ProfileHistoryChain } from './profile-history-chain.service';
import { ProfileCountSource } from './profile-count-source.service';

/** Provided here and exported as they are. */
const ports = [
  ProfileHolders,
  ProfileWriteQueue,
  ProfileWriteChecks,
  ProfileImportWrites,
  ProfileExportReader,
  ProfileEventFeed,
  ProfileSnapshots,
  ProfileHistoryChain,
  ProfileCountSource,
];

/**
 * What other modules' jobs and use cases may use of Profiles: find the holders of a value,
 * queue system writes, check profile bodies as a write's acceptance does (the bulk
 * import's staging), accept a bulk import's records as profile writes (its worker) and
 * read a client's profiles by id for a bulk export (its worker), read a profile's events
 * (Events), read profiles as GET does, by id, alternate id or held value (Decisions), and
 * read a profile's consent-receipt hash chain (Consents' receipts).
 * Lifted into its own service, this module becomes an HTTP (holders) and queue (writes)
 * adapter behind the same classes.
 */
@Module({
  imports: [ProfilesPersistenceModule],
  providers: ports,
  exports: ports,
})
export class ProfilePortsModule {}
