import { ConsentStatus } from '@app/config';
import {
  consentRule,
  CONTACT_LISTS,
  type DataRule,
  deactivateUnrestated,
  type ElementRule,
  type ProfileData,
  type StoredConsent,
  type WriteContext,
} from '@app/profiles';
import { consentTransitionRefusal, isConsentStatus } from './consent-transitions';
import { type ConsentTypeTerms, settleConsent } from './consent-write';

/*
 * The consent rules of a profile write (the status table and settling are beside them): status
 * transitions, checked at acceptance against the stored profile and again by the worker
 * against the profile as it is then; and the derived fields (version, dates, flags) the
 * worker stores.
 */

type Element = Record<string, unknown>;

/**
 * One message per consent of the body whose status change is not allowed, naming its
 * path, type, the stored status and the requested one. A consent compares with the
 * stored consent of its type in the same container (the profile, or the contact element
 * with the same key); an inactive stored consent counts as none (callers never see it).
 * ConsentStatus null asks for NotSet; an omitted ConsentStatus changes nothing.
 */
export function consentTransitionProblems(body: Element, current?: ProfileData): string[] {
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
  body: Element,
  current: ProfileData | undefined,
  visit: (consent: Element, previous: Element | undefined, path: string) => void,
): void {
  const stored = current as unknown as Element | undefined;
  const each = (consents: unknown, storedConsents: unknown, path: string) =>
    elements(consents).forEach((consent, index) =>
      visit(consent, matching(storedConsents, consentRule, consent), `${path}[${index}]`),
    );
  each(body.Consents, stored?.Consents, 'Consents');
  for (const { list, rule } of CONTACT_LISTS) {
    elements(body[list]).forEach((element, index) => {
      const storedElement = matching(stored?.[list], rule, element);
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
export function priorConsentProblems(body: Element, current?: ProfileData): string[] {
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
 * The data rule of consents: every consent of the profile after a write, settled against
 * the consent of its type stored before in the same container (see `settleConsent`).
 */
export const consentDataRule: DataRule = (before, after, vocabulary, ctx) => {
  const termsOf = (typeName: string | undefined): ConsentTypeTerms | undefined =>
    typeName ? vocabulary.consentType(typeName) : undefined;
  const settle = (consents: unknown, storedConsents: unknown) =>
    elements(consents).map((consent) =>
      settleConsent(
        matching(storedConsents, consentRule, consent) as StoredConsent | undefined,
        consent as unknown as StoredConsent,
        termsOf(consent.ConsentType as string | undefined),
        ctx.at,
      ),
    );

  const was = before as unknown as Element | undefined;
  const result = { ...after, Consents: settle(after.Consents, was?.Consents) };
  const data = result as unknown as Element;
  for (const { list, rule } of CONTACT_LISTS) {
    if (!Array.isArray(data[list])) continue;
    data[list] = elements(data[list]).map((element) =>
      Array.isArray(element.Consents)
        ? {
            ...element,
            Consents: settle(element.Consents, matching(was?.[list], rule, element)?.Consents),
          }
        : element,
    );
  }
  return result;
};

function matching(list: unknown, rule: ElementRule, element: Element): Element | undefined {
  const key = rule.key(element);
  return elements(list).find((candidate) => rule.key(candidate) === key);
}

function elements(value: unknown): Element[] {
  return Array.isArray(value) ? (value.filter((v) => v && typeof v === 'object') as Element[]) : [];
}

/**
 * A merge that sends `PreserveConsents: false` deactivates (IsActive false, Edited stamped
 * with the write) every active consent of the contact elements it does not restate;
 * profile-level consents are kept (the spec ties the flag to contact element consents).
 * Elements `hidden` from the writer are left alone.
 */
export function applyPreserveConsents(
  after: ProfileData,
  input: Element,
  ctx: WriteContext,
  hidden: (collection: string, element: Element) => boolean,
): ProfileData {
  if (input.PreserveConsents !== false) return after;
  return deactivateUnrestated(
    after,
    input,
    { contact: () => 'Consents' },
    consentRule.key,
    (consent) =>
      (consent.Edited = {
        ...((consent.Edited as Element | undefined) ?? {}),
        ModifiedDate: ctx.at,
        ModifiedBy: ctx.userId,
      }),
    hidden,
  );
}
