// The ports of @app/profiles, all that its index.ts exports (other libs and apps import
// nothing deeper): the Nest modules and what the apps hand to Nest, the rule port and the
// aggregate's types a rule module reads, the search and history routes other modules extend,
// the services of ProfilePortsModule, and the apply's extension port. What is only a
// port is declared in this folder; the rule port and the aggregate's types stay in domain/,
// whose fold uses them, and are re-exported here.
export * from '../profiles-api.module';
export * from '../profiles-worker.module';
export * from '../profile-rules.module';
export * from './profile-ports.module';
export * from '../profile.job-definitions';
export { PROFILE_SETTINGS } from '../profile-settings';

// The rule port (what a rule module such as Consents or Preferences implements) and the
// profile aggregate's types and element identities the rules read.
export type {
  ContactPair,
  HistoryChange,
  HistoryDiff,
  KeyQuery,
  MergeDecision,
  MergePrecedence,
  ProfileBody,
  ProfileHistoryRule,
  ProfileRuleModule,
  ProfileSearchRule,
  RuleWriteContext,
  RuleWriteKind,
  SearchCondition,
  SearchCriteriaOf,
} from '../domain/profile-rules.port';
export { ProfileRules } from '../domain/profile-rules';
export { compareStamps, editedStamp } from '../domain/profile-absorb';
export type { DataRule } from '../domain/data-rule';
export { PermanentWriteError } from '../domain/permanent-write-error';
export {
  confirmationIdOf,
  type ConfirmedPreference,
  PREFERENCE_CONFIRM_WRITE,
  PREFERENCE_CONFIRMATION_EXPIRE_WRITE,
  type PreferenceConfirmationExpireWrite,
  type PreferenceConfirmWrite,
} from '../domain/confirmation-writes';
export type {
  PreferenceFilter,
  PreferenceVocabulary,
  ProfileVocabulary,
} from '../domain/profile-vocabulary';
export type {
  Edited,
  ProfileData,
  StoredAddress,
  StoredConsent,
  StoredConfirmationEvidence,
  StoredPendingConfirmation,
  StoredConsentAssociation,
  StoredEmail,
  StoredPhone,
  StoredPreference,
  StoredPreferenceAttribute,
} from '../domain/profile-data.schema';
export {
  type BodyOf,
  type ConsentBody,
  type ContactBody,
  type ContactElement,
  type ElementBody,
  type PreferenceBody,
  type ProfileElement,
  contactPreferences,
  elementsOf,
  fieldOf,
} from '../domain/profile-shape';
export type { WriteContext } from '../domain/apply-profile-write';
export { applyProfileWrite } from '../domain/apply-profile-write';
export {
  consentRule,
  type ElementRule,
  phoneDigits,
  preferenceRule,
  PROFILE_COLLECTIONS,
} from '../domain/element-rules';
export { CONTACT_LISTS } from '../domain/profile-history';
export { preferenceIdKey, preferenceKey } from '../domain/preference-key';
export {
  canSeeConsentType,
  canSeePreference,
  canSeeProgram,
  normaliseScope,
  type CallerScope,
  type ProfileView,
  scopeOf,
  viewKey,
  writerView,
} from '../domain/profile-view';
// The `{profileId}` path parameter, for the routes of other modules under a profile.
export { ApiProfileIdParam, ProfileIdParam } from '../wire/profile-id.param';
export { type CurrentNames, withCurrentNames } from '../domain/current-names';
export { deactivateUnrestated } from '../domain/apply-profile-write';

// For the profile searches of other modules: their routes dispatch SearchProfilesQuery.
export { ProfileDto } from '../wire/profile.dto';
export type { AttributePair } from '../read/search/search-profiles/profile-search.criteria';
export { SearchProfilesQuery } from '../read/search/search-profiles/search-profiles.query';
export {
  ProfileSearchRoutes,
  SEARCH_ATTRIBUTES,
  SEARCH_RESULT,
  searchProfilesQuery,
} from '../read/search/profile-search.api';
export {
  SearchAttributeParams,
  SearchFlagParams,
  type SearchFlags,
} from '../read/search/profile-search.params';
export {
  type AttributeSearch,
  AttributeSearchController,
  type AttributeSearchRoute,
} from '../read/search/attribute-search.controller';

// For the history categories of other modules: their routes dispatch GetProfileHistoryQuery.
export type {
  ContactIdentity,
  HistoryContainer,
  HistoryEntryOf,
  HistorySnapshot,
  ProfileHistory,
} from '../domain/profile-history.schema';
export { isConsentEntry, isPreferenceEntry } from '../domain/profile-history.schema';
export { compareHistoryEntries, historyEntries } from '../domain/profile-history';
export { profileEvents, type ProfileEvent } from '../domain/profile-events';
export { historyItemInContainer } from '../read/history/profile-history.mapper';
export { confirmationFields, toConsentDto, toEdited } from '../wire/profile.mapper';
export type { ConsentAssociationDto, ConsentDto } from '../wire/consent.dto';
export type { PreferenceDto } from '../wire/preference.dto';
export type { AddressDto, EmailDto, PhoneDto } from '../wire/contact.dto';
export {
  GetProfileHistoryQuery,
  type HistoryTarget,
} from '../read/history/get-profile-history/get-profile-history.query';
export {
  HISTORY_ENTRY_SHAPE,
  type HistoryRouteText,
  profileHistoryQuery,
  ProfileHistoryRoute,
  ProfileHistoryRoutes,
} from '../read/history/profile-history.api';
export { AlternateIdParams, BooleanQuery } from '../wire/alternate-id.params';
export type { AlternateIdPair } from '../persistence/alternate-id-claims.service';

// Ports for other modules' jobs and use cases (ProfilePortsModule, ProfilesWorkerModule).
export { type HeldProfile, type HeldValue, ProfileHolders } from './profile-holders.service';
export { ProfileWriteQueue } from './profile-write-queue.service';
export {
  type ProfileBodyCheck,
  type ProfileBodyChecker,
  ProfileWriteChecks,
} from './profile-write-checks.service';
export {
  type ImportRecordKeys,
  type ImportRecordWrite,
  ProfileImportWrites,
} from './profile-import-writes.service';
export type { ImportCreateOptions } from '../intake/profile-upserts.service';
export type {
  ImportedProfile,
  ImportedProfileOutcome,
  ImportedProfilesCreation,
  PreparedImportedProfiles,
} from '../apply/import/create-imported-profiles.command';
export {
  type ExportBatch,
  type ExportedProfile,
  ProfileExportReader,
} from './profile-export-reader.service';
export { ProfileEventFeed } from './profile-event-feed.service';
export {
  type ChainedHistoryEntry,
  type ChainedProfileHistory,
  type AbsorbedChainLink,
  absorbedLinks,
  ProfileHistoryChain,
} from './profile-history-chain.service';
export {
  CHAIN_HASH_ALGORITHM,
  chainCanonicalText,
  type ChainEntry,
  type ChainFailureReason,
  type ChainProblem,
  type ChainReport,
  chainHistoryEntries,
  historyEntryHash,
  historyEntryId,
  verifyHistoryChain,
} from '../domain/history-chain';
export {
  MAX_VALUE_HOLDERS,
  ProfileSnapshots,
  type ProfileSnapshot,
} from './profile-snapshots.service';
export {
  contactRefKey,
  type HistoryRefs,
  itemRefKey,
  parseHistoryRefs,
  PROFILE_REF_KEY,
} from '../domain/history-refs';
export { isImpliedPreference, viewOf } from '../domain/profile-view';
// The one port of what other modules do inside the apply (counts, follow-up writes, the
// event trigger, erasure cleanup), and what the counts' rebuild reads.
export {
  type AppliedWrite,
  type CountedStep,
  PROFILE_EXTENSIONS,
  type ProfileExtension,
  type SavedProfile,
  type WriteTransition,
} from './profile-extension.port';
export type { CountDelta, Profile, ProfileState } from '../domain/profile.schema';
export { ProfileCountSource, type StoredProfilePage } from './profile-count-source.service';
export { MergedProfileError, mergedMessage } from '../domain/profile-merge-steps';
