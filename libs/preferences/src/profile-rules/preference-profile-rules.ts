import { canSeeProgram, PermanentWriteError, type ProfileRuleModule } from '@app/profiles';
import { archivePreferences, type ArchivePreferencesWrite } from '../domain/preference-archive';
import { decidePreference } from '../domain/preference-merge-precedence';
import { expirePreferences, nextPreferenceDue } from '../domain/preference-expiry';
import {
  applyPreservePreferences,
  preferenceDataRule,
  preferenceProblems,
} from '../domain/preference.rules';
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
 * merge's precedence of preferences (P rows).
 */
export const PREFERENCE_PROFILE_RULES: ProfileRuleModule = {
  name: 'preferences',
  problems: preferenceProblems,
  derive: preferenceDataRule,
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
  },
  searchKeys: preferenceSearchKeys,
  searches: [PREFERENCE_ATTRIBUTE_SEARCH],
  history: [PREFERENCE_HISTORY],
  mergePrecedence: { preference: decidePreference },
};
