// Public surface of @app/config: other libs import nothing deeper.
export * from './configuration-api.module';
export * from './types';
export * from './programs';
export { ConfigurationReaderModule } from './reader/configuration-reader.module';
export { ConfigurationReader } from './reader/configuration-reader.service';
export type { ClientVocabulary, VocabularyProgram } from './reader/client-vocabulary';
export type {
  ClientPresentation,
  PresentationConsentType,
  PresentationFilter,
  PresentationFrequency,
  PresentationLocale,
  PresentationProgram,
} from './reader/client-presentation';
export { isSaleOrShare, SALE_OR_SHARE_PROPERTY } from './reader/client-presentation';
export * from './consent-types';
export * from './custom-fields';
export * from './picklists';
export * from './consent-status/consent-status';
export { UpdateRule } from './custom-fields/domain/update-rules';
export * from './confirmation-settings';
