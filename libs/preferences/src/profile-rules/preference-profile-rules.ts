import {
  canSeeProgram,
  PermanentWriteError,
  PREFERENCE_CONFIRM_WRITE,
  PREFERENCE_CONFIRMATION_EXPIRE_WRITE,
  type PreferenceConfirmationExpireWrite,
  type PreferenceConfirmWrite,
  preferenceIdKey,
  type ProfileRuleModule,
} from '@app/profiles';
import { textKey } from '@app/shared';
import { archivePreferences, type ArchivePreferencesWrite } from '../domain/preference-archive';
import { decidePreference } from '../domain/preference-merge-precedence';
import { expirePreferences, nextPreferenceDue } from '../domain/preference-expiry';
import {
  applyPreservePreferences,
  CUSTOMER_TYPE_NAME,
  expirationDays,
  preferenceDataRule,
  preferenceProblems,
} from '../domain/preference.rules';
import {
  applyOptInConfirmation,
  expireOptInConfirmation,
  holdUnconfirmedOptIns,
} from '../domain/preference-confirmation';
import { PREFERENCE_HISTORY } from '../history/preference-history';
import {
  PREFERENCE_ATTRIBUTE_SEARCH,
  preferenceSearchKeys,
} from '../search/preference-attribute-search';

/**
 * What Preferences plugs into the profile write pipeline (the port Profiles declares): the
 * checks of written preferences against the programs and filters, the values they are
 * stored with, the PreservePreferences flag, preference expiry, archival, the search by
 * preference attributes (its index keys and matcher), the history of preferences, and a
 * merge's precedence of preferences (P rows), and the double opt-in of programs (an opt-in
 * held for confirmation, its confirm and expiry writes).
 */
export const PREFERENCE_PROFILE_RULES: ProfileRuleModule = {
  name: 'preferences',
  problems: preferenceProblems,
  // The hold after the stored values: it sees the preference as the write would store it.
  derive: (before, after, vocabulary, ctx) =>
    holdUnconfirmedOptIns(
      before,
      preferenceDataRule(before, after, vocabulary, ctx),
      vocabulary,
      ctx,
    ),
  afterMerge: applyPreservePreferences,
  expire: expirePreferences,
  nextDue: nextPreferenceDue,
  writeKinds: {
    'archive-preferences': (profile, body, ctx) => {
      if (profile.state === 'deleted') throw new PermanentWriteError('The profile was deleted');
      if (!profile.data) throw new PermanentWriteError('The profile was never created');
      // Only preferences of programs the writer's user group may see are archived.
      return archivePreferences(
        profile.data,
        body as ArchivePreferencesWrite,
        (programId) => canSeeProgram(ctx.view, programId),
        ctx,
      );
    },
    [PREFERENCE_CONFIRM_WRITE]: (profile, body, ctx) => {
      // A profile deleted meanwhile has nothing to confirm (no failure).
      if (profile.state !== 'active' || !profile.data) return undefined;
      const customer = textKey(profile.data.CustomerType) === textKey(CUSTOMER_TYPE_NAME);
      return applyOptInConfirmation(
        profile.data,
        body as PreferenceConfirmWrite,
        (preference) => {
          const filter = ctx.vocabulary.filter(Number(preferenceIdKey(preference.FilterId)));
          const days = expirationDays(filter, preference.PreferenceType, customer);
          return days === undefined
            ? undefined
            : new Date(Date.parse(ctx.at) + days * 86_400_000).toISOString();
        },
        ctx,
      );
    },
    [PREFERENCE_CONFIRMATION_EXPIRE_WRITE]: (profile, body, ctx) => {
      if (profile.state !== 'active' || !profile.data) return undefined;
      return expireOptInConfirmation(profile.data, body as PreferenceConfirmationExpireWrite, ctx);
    },
  },
  searchKeys: preferenceSearchKeys,
  searches: [PREFERENCE_ATTRIBUTE_SEARCH],
  history: [PREFERENCE_HISTORY],
  mergePrecedence: { preference: decidePreference },
};
