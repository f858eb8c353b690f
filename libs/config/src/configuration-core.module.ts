import { Module } from '@nestjs/common';
import { tenantScopedFeatures } from '@app/shared';
import {
  ConfigClaim,
  ConfigClaimSchema,
  ConfigStamp,
  ConfigStampSchema,
} from './common/config-bookkeeping.schema';
import { ConfigBookkeeping } from './common/config-bookkeeping.repository';

const providers = [ConfigBookkeeping];

/**
 * The configuration collections and their repositories, without HTTP: the api's
 * Configuration API and the profile write validation (api and worker) both use it.
 */
@Module({
  imports: [
    tenantScopedFeatures([ConfigStamp, ConfigStampSchema], [ConfigClaim, ConfigClaimSchema]),
  ],
  providers,
  exports: providers,
})
export class ConfigurationCoreModule {}
