import { ConsentStatus } from '@app/config';
import {
  type ConsentBody,
  consentRule,
  type ContactBody,
  type ContactElement,
  CONTACT_LISTS,
  type DataRule,
  deactivateUnrestated,
  type ElementBody,
  elementsOf,
  type ElementRule,
  type ProfileBody,
  type ProfileData,
  PROFILE_COLLECTIONS,
  type ProfileVocabulary,
  type StoredConsent,
  type StoredEmail,
  type WriteContext,
} from '@app/profiles';
import { textKey } from '@app/shared';
import { holdForConfirmation } from '../confirmations/domain/confirmation-hold';
import { consentTransitionRefusal, isConsentStatus } from './consent-transitions';
import { type ConsentTypeTerms, settleConsent } from './consent-write';

/*
 * The consent rules of a profile write (the status table and settling are beside them): status
 * transitions, checked at acceptance against the stored profile and again by the worker
 * against the profile as it is then; and the derived fields (version, dates, flags) the
 * worker stores.
 */

/**
 * One message per consent of the body whose status change is not allowed, naming its
 * path, type, the stored status and the requested one. A consent compares with the
 * stored consent of its type in the same container (the profile, or the contact element
 * with the same key); an inactive stored consent counts as none (callers never see it).
 * ConsentStatus null asks for NotSet; an omitted ConsentStatus changes nothing.
 */
export function consentTransitionProblems(body: ProfileBody, current?: ProfileData): string[] {
  const problems: string[] = [];
  forEachSentConsent(body, current, (consent, previous, path) => {
    if (typeof consent.ConsentType !== 'string' || !('ConsentStatus' in consent)) return;
    const to = consent.ConsentStatus === null ? ConsentStatus.NotSet : consent.ConsentStatus;
    if (!isConsentStatus(to)) return; // the DTO refuses it
    const from =
      !previous || previous.IsActive === false
        ? 'new'
        : isConsentStatus(previous.ConsentStatus)
          ? previous.ConsentStatus
          : ConsentStatus.NotSet;
    const refusal = consentTransitionRefusal(from, to);
    if (refusal) {
      problems.push(
        `${path}.ConsentStatus (ConsentType ${JSON.stringify(consent.ConsentType)}): ${refusal}`,
      );
    }
  });
  return problems;
}

/**
 * Every consent of a body (the profile's, then each contact element's), with the stored
 * consent of its type in the same container (the profile, or the stored contact element
 * with the same key) and its path (`Emails[0].Consents[1]`).
 */
function forEachSentConsent(
  body: ProfileBody,
  current: ProfileData | undefined,
  visit: (consent: ConsentBody, previous: StoredConsent | undefined, path: string) => void,
): void {
  const each = (
    consents: unknown,
    storedConsents: readonly StoredConsent[] | undefined,
    path: string,
  ) =>
    elementsOf<ConsentBody>(consents).forEach((consent, index) =>
      visit(consent, matching(storedConsents, consentRule, consent), `${path}[${index}]`),
    );
  each(body.Consents, current?.Consents, 'Consents');
  for (const { list, rule } of CONTACT_LISTS) {
    elementsOf<ContactBody>(body[list]).forEach((element, index) => {
      const storedElement = matching<ContactElement>(current?.[list], rule, element);
      each(element.Consents, storedElement?.Consents, `${list}[${index}].Consents`);
    });
  }
}

/**
 * One message per consent of an imported record that is older than the consent it would
 * replace: its ConsentDate is earlier than the ConsentDate of the active stored consent of
 * its type in the same container (see `consentTransitionProblems`). A bulk import refuses
 * such a record unless it was initiated with AllowPriorConsents (docs/bulk.md), so that a
 * load of old records never overwrites a more recent decision of the person. A consent
 * without a ConsentDate (stamped when applied) or with none stored to compare is not prior.
 */
export function priorConsentProblems(body: ProfileBody, current?: ProfileData): string[] {
  const problems: string[] = [];
  forEachSentConsent(body, current, (consent, previous, path) => {
    const sent = Date.parse(String(consent.ConsentDate));
    if (typeof consent.ConsentDate !== 'string' || Number.isNaN(sent)) return;
    if (!previous || previous.IsActive === false) return;
    const kept = Date.parse(String(previous.ConsentDate));
    if (Number.isNaN(kept) || sent >= kept) return;
    problems.push(
      `${path}.ConsentDate ${JSON.stringify(consent.ConsentDate)} (ConsentType ${JSON.stringify(consent.ConsentType)}) is earlier than the stored consent's ${JSON.stringify(previous.ConsentDate)}: a prior consent, imported only with AllowPriorConsents true`,
    );
  });
  return problems;
}

/**
 * One message per consent of a bulk import's record whose stated Confirmation (a
 * confirmation made elsewhere, docs/bulk.md) cannot be recorded: stated elsewhere than on a
 * consent of an email address, with a consent that is not an active grant, or confirmed
 * after `now` (ms). Its shape (Method, ConfirmedDate, lengths) is the DTO's to check.
 */
export function statedConfirmationProblems(body: ProfileBody, now: number): string[] {
  const problems: string[] = [];
  forEachSentConsent(body, undefined, (consent, _previous, path) => {
    const stated = consent.Confirmation;
    if (stated === undefined || stated === null) return;
    if (!path.startsWith('Emails[')) {
      problems.push(
        `${path}.Confirmation: a confirmation is stated only on a consent of an email address (Emails[].Consents[])`,
      );
      return;
    }
    if (consent.IsActive === false || consent.ConsentStatus !== ConsentStatus.Granted) {
      problems.push(
        `${path}.Confirmation (ConsentType ${JSON.stringify(consent.ConsentType)}): stated only with a grant, ConsentStatus 1 (value ${JSON.stringify(consent.ConsentStatus ?? null)}${consent.IsActive === false ? ', IsActive false' : ''})`,
      );
    }
    const confirmed = Date.parse(String(stated.ConfirmedDate));
    if (!Number.isNaN(confirmed) && confirmed > now) {
      problems.push(
        `${path}.Confirmation.ConfirmedDate (value ${JSON.stringify(stated.ConfirmedDate)}): must not be in the future`,
      );
    }
  });
  return problems;
}

/**
 * The data rule of consents: every consent of the profile after a write, settled against
 * the consent of its type stored before in the same container (see `settleConsent`).
 */
export const consentDataRule: DataRule = (before, after, vocabulary, ctx) => {
  const termsOf = (typeName: string | undefined): ConsentTypeTerms | undefined =>
    typeName ? vocabulary.consentType(typeName) : undefined;
  const settle = (consents: unknown, storedConsents: readonly StoredConsent[] | undefined) =>
    elementsOf<StoredConsent>(consents).map((consent) =>
      settleConsent(
        matching(storedConsents, consentRule, consent),
        consent,
        termsOf(consent.ConsentType),
        ctx.at,
      ),
    );
  /** A contact list with each element's consents settled against its stored element's. */
  const settleContacts = <C extends ContactElement>(
    list: unknown,
    stored: readonly C[] | undefined,
    rule: ElementRule,
  ): C[] =>
    elementsOf<C>(list).map((element) =>
      Array.isArray(element.Consents)
        ? {
            ...element,
            Consents: settle(element.Consents, matching(stored, rule, element)?.Consents),
          }
        : element,
    );

  const result = { ...after, Consents: settle(after.Consents, before?.Consents) };
  if (Array.isArray(result.Emails))
    result.Emails = holdUnconfirmedGrants(
      settleContacts(result.Emails, before?.Emails, PROFILE_COLLECTIONS.Emails),
      before?.Emails,
      vocabulary,
      ctx,
    );
  if (Array.isArray(result.PhoneNumbers))
    result.PhoneNumbers = settleContacts(
      result.PhoneNumbers,
      before?.PhoneNumbers,
      PROFILE_COLLECTIONS.PhoneNumbers,
    );
  if (Array.isArray(result.Addresses))
    result.Addresses = settleContacts(
      result.Addresses,
      before?.Addresses,
      PROFILE_COLLECTIONS.Addresses,
    );
  return result;
};

/**
 * The consents of each email address with grants of types requiring confirmation held
 * until the person confirms them (double opt-in, confirmations/domain/confirmation-hold.ts).
 */
function holdUnconfirmedGrants(
  emails: StoredEmail[],
  storedEmails: readonly StoredEmail[] | undefined,
  vocabulary: ProfileVocabulary,
  ctx: WriteContext,
): StoredEmail[] {
  return emails.map((email) => {
    if (!Array.isArray(email.Consents)) return email;
    const storedConsents = matching(storedEmails, PROFILE_COLLECTIONS.Emails, email)?.Consents;
    const emailKey = textKey(email.EmailAddress);
    return {
      ...email,
      Consents: email.Consents.map((consent) =>
        holdForConfirmation(
          matching(storedConsents, consentRule, consent),
          consent,
          consent.ConsentType ? vocabulary.consentType(consent.ConsentType) : undefined,
          emailKey,
          ctx.at,
          ctx.confirmationsCarried === true,
        ),
      ),
    };
  });
}

/** The element of `list` with the key of `element` under `rule`, if any. */
function matching<E extends ElementBody>(
  list: readonly E[] | null | undefined,
  rule: ElementRule,
  element: ElementBody,
): E | undefined {
  const key = rule.key(element);
  return elementsOf<E>(list).find((candidate) => rule.key(candidate) === key);
}

/**
 * A merge that sends `PreserveConsents: false` deactivates (IsActive false, Edited stamped
 * with the write) every active consent of the contact elements it does not restate;
 * profile-level consents are kept (the spec ties the flag to contact element consents).
 * Elements `hidden` from the writer are left alone.
 */
export function applyPreserveConsents(
  after: ProfileData,
  input: ProfileBody,
  ctx: WriteContext,
  hidden: (collection: string, element: ElementBody) => boolean,
): ProfileData {
  if (input.PreserveConsents !== false) return after;
  return deactivateUnrestated<ConsentBody>(
    after,
    input,
    { contact: () => 'Consents' },
    consentRule.key,
    (consent) =>
      (consent.Edited = {
        ...(consent.Edited ?? {}),
        ModifiedDate: ctx.at,
        ModifiedBy: ctx.userId,
      }),
    hidden,
  );
}
