import { Module } from '@nestjs/common';
import { tenantScopedFeatures } from '@app/shared';
import { Profile, ProfileSchema } from '../../domain/profile.schema';
import { ExpireConsentsHandler } from './expire-consents/expire-consents.handler';
import { ProfilesPersistenceModule } from '../../profiles-persistence.module';
import { ExpiryCandidates } from './expiry-candidates.repository';
import { ConsentExpiryJob } from './scheduled.jobs';

/**
 * The worker's scheduled job over profiles: expiry (the rule modules say what expires).
 * It changes profiles only through queued writes (ProfileWriteIntake).
 */
@Module({
  imports: [
    ProfilesPersistenceModule,
    // The same model ProfilesPersistenceModule registers, for the cross-client query.
    tenantScopedFeatures([Profile, ProfileSchema]),
  ],
  providers: [ExpiryCandidates, ExpireConsentsHandler, ConsentExpiryJob],
})
export class ScheduledJobsModule {}
