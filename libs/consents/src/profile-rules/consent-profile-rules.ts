import type { ProfileRuleModule } from '@app/profiles';
import { expireConsents, nextConsentDue } from '../domain/consent-due';
import {
  applyPreserveConsents,
  consentDataRule,
  consentTransitionProblems,
  priorConsentProblems,
  statedConfirmationProblems,
} from '../domain/consent.rules';
import {
  type ConsentVersionPendingWrite,
  markVersionPending,
} from '../domain/consent-version-pending';
import { decideConsent } from '../domain/consent-merge-precedence';
import {
  applyDoNotContact,
  type DncApplyWrite,
  isDoNotContactMark,
} from '../do-not-contact/domain/do-not-contact-marks';
import { CONSENT_HISTORY } from '../history/consent-history';
import {
  applyConfirmation,
  CONFIRMATION_EXPIRE_WRITE,
  CONSENT_CONFIRM_WRITE,
  type ConfirmationExpireWrite,
  type ConsentConfirmWrite,
  expirePendingConfirmation,
} from '../confirmations/domain/confirmation-hold';
import { settleConsent } from '../domain/consent-write';
import { CONSENT_ATTRIBUTE_SEARCH, consentSearchKeys } from '../search/consent-attribute-search';

/**
 * What Consents plugs into the profile write pipeline (the port Profiles declares): the
 * status transitions a write may make, the values a written consent is stored with, the
 * PreserveConsents flag, consent expiry, and the system writes of its jobs (a newer
 * version published, a do-not-contact list change), the search by consent-type
 * attributes (its index keys and matcher), the history of consents, and a merge's
 * precedence of consents (K rows) and of its do-not-contact marks (P9).
 */
export const CONSENT_PROFILE_RULES: ProfileRuleModule = {
  name: 'consents',
  problems: (body, _vocabulary, _kind, current) => consentTransitionProblems(body, current),
  importProblems: (body, current, { allowPriorConsents }) =>
    allowPriorConsents ? [] : priorConsentProblems(body, current),
  importRecordProblems: statedConfirmationProblems,
  derive: consentDataRule,
  afterMerge: applyPreserveConsents,
  expire: expireConsents,
  nextDue: nextConsentDue,
  writeKinds: {
    'consent-version-pending': (profile, body, ctx) => {
      if (profile.state !== 'active' || !profile.data) return undefined;
      const pending = body as ConsentVersionPendingWrite;
      // Queued under the name the type had then: the current name applies.
      const ConsentType =
        ctx.vocabulary.consentTypeName(pending.ConsentType) ?? pending.ConsentType;
      return markVersionPending(profile.data, { ...pending, ConsentType }, ctx).data;
    },
    [CONSENT_CONFIRM_WRITE]: (profile, body, ctx) => {
      // A profile deleted meanwhile has nothing to confirm (no failure).
      if (profile.state !== 'active' || !profile.data) return undefined;
      const confirm = body as ConsentConfirmWrite;
      const terms = ctx.vocabulary.consentType(confirm.ConsentType);
      return applyConfirmation(
        profile.data,
        confirm,
        (stored, granted) => settleConsent(stored, granted, terms, ctx.at),
        ctx,
      );
    },
    [CONFIRMATION_EXPIRE_WRITE]: (profile, body, ctx) => {
      // A profile deleted meanwhile has nothing to expire (no failure).
      if (profile.state !== 'active' || !profile.data) return undefined;
      return expirePendingConfirmation(profile.data, body as ConfirmationExpireWrite, ctx);
    },
    'dnc-apply': (profile, body, ctx) => {
      // A profile deleted meanwhile has nothing to mark (no failure).
      if (profile.state === 'deleted' || !profile.data) return undefined;
      return applyDoNotContact(profile.data, body as DncApplyWrite, ctx);
    },
  },
  searchKeys: consentSearchKeys,
  searches: [CONSENT_ATTRIBUTE_SEARCH],
  history: [CONSENT_HISTORY],
  mergePrecedence: { consent: decideConsent, marksPreference: isDoNotContactMark },
};
