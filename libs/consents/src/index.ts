export * from './consent-status';
export {
  DoNotContactApiModule,
  DoNotContactPersistenceModule,
} from './do-not-contact/do-not-contact.module';
export { DoNotContactLists } from './do-not-contact/services/do-not-contact-lists.service';
export type { DncEntry, DncListType } from './do-not-contact/domain/dnc-list.schema';
export * from './consent-transitions';
export * from './consent-expiry';
export * from './consent-write';
