// The public surface of the consent-types area (for libs/config/src/index.ts to re-export).
export { ConsentTypesCoreModule, ConsentTypesModule } from './consent-types.module';
export { ConsentTypeCatalog } from './services/consent-type-catalog.service';
export { ConfigEventOutbox } from './repositories/config-event-outbox.repository';
export type { ConsentTypeDetails } from './mapping/consent-type.mapper';
export {
  CONSENT_TYPE_RENAMED,
  CONSENT_VERSION_PUBLISHED,
  type ConfigEvent,
} from './domain/config-event.schema';
