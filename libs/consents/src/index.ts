// Public surface of @app/consents: other libs import nothing deeper.
export { ConsentsApiModule } from './consents-api.module';
export { DoNotContactPersistenceModule } from './do-not-contact/do-not-contact.module';
export { ConsentsWorkerModule, DoNotContactMarksModule } from './consents-worker.module';
export { DoNotContactMarks } from './do-not-contact/services/do-not-contact-marks.service';
export { DoNotContactLists } from './do-not-contact/services/do-not-contact-lists.service';
export {
  type DncListing,
  DoNotContactListings,
} from './do-not-contact/services/do-not-contact-listings.service';
export { DNC_LISTS_ATTRIBUTE } from './do-not-contact/domain/do-not-contact-marks';
export type { DncEntry, DncListType } from './do-not-contact/domain/dnc-list.schema';
export { CONSENT_PROFILE_RULES } from './profile-rules/consent-profile-rules';
export type { ConsentAttributeSearch } from './search/consent-attribute-search';
export * from './worker/consent.job-definitions';
export { CONSENT_SETTINGS } from './consent-settings';
export * from './domain/consent-transitions';
export * from './domain/consent-expiry';
export * from './domain/consent-write';
export { CONFIRMATION_SETTINGS } from './confirmations/confirmation-settings';
export { CONFIRM_ROUTE } from './confirmations/domain/confirmation-paths';
export { ConfirmationRequests } from './confirmations/services/confirmation-requests.service';
export { ConfirmationRequestsModule } from './confirmations/confirmations.module';
export {
  CONFIRMATION_EXPIRY,
  CONFIRMATION_MAIL,
  CONFIRMATION_SWEEP,
} from './confirmations/worker/confirmation.job-definitions';
