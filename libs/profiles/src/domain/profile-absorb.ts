import {
  addressRule,
  alternateIdRule,
  consentRule,
  customFieldRule,
  CUSTOMER_NAME_FIELDS,
  type ElementRule,
  emailRule,
  groupRule,
  phoneRule,
  preferenceRule,
  PROFILE_FIELDS,
  tagRule,
} from './element-rules';
import type {
  Edited,
  ProfileData,
  StoredAlternateId,
  StoredConsent,
  StoredCustomField,
  StoredGroup,
  StoredPreference,
  StoredProfileTag,
} from './profile-data.schema';
import { fieldOf, setField } from './profile-shape';

/*
 * Profile merge (issue 33, docs/profile-merge.md): the survivor absorbs another profile.
 * Pure: the worker calls it with both stored bodies; every rule here is a row of the
 * precedence tables in docs/profile-merge.md (row ids in the comments), each with a test in
 * profile-absorb.spec.ts.
 */

/** Who merges, when (the merge's acceptance time), why, and the custom fields' rules. */
export interface AbsorbContext {
  at: string;
  userId: string;
  reasonCode: string;
  /** The update rule id of a custom field by its name (absent: Always, 1). */
  updateRuleOf(fieldName: string): number | null | undefined;
}

/** Custom field update rules (the v4 ids, as libs/config's UpdateRule). */
const ALWAYS = 1; // and any rule id not known here
const IF_CURRENT_VALUE_IS_BLANK = 2;
const IF_NEW_VALUE_IS_NOT_BLANK = 4;
const NEVER = 5;

const DENIED = 2;
const REVOKED = 3;
const NOT_SET = 4;
const OPT_OUT = 2;
const DNC_LISTS_ATTRIBUTE = '$DoNotContactLists';
const DNC_SOURCE = 'donotcontact';

/** The survivor's data after absorbing `absorbed` (neither input is changed). */
export function absorbProfile(
  survivor: ProfileData,
  absorbed: ProfileData,
  ctx: AbsorbContext,
): ProfileData {
  const result = structuredClone(survivor);

  // F1: the survivor's standard fields; one it lacks comes from the absorbed profile.
  for (const field of PROFILE_FIELDS) {
    if (field === 'ReasonCode') continue;
    if (fieldOf(result, field) === undefined || fieldOf(result, field) === null) {
      const value = fieldOf(absorbed, field);
      if (value !== undefined && value !== null) setField(result, field, structuredClone(value));
    }
  }
  // F2: the survivor's name part by part; a part it lacks comes from the absorbed profile.
  if (absorbed.CustomerName) {
    const name = { ...(result.CustomerName ?? {}) };
    for (const part of CUSTOMER_NAME_FIELDS) {
      if (isBlank(fieldOf(name, part)) && !isBlank(fieldOf(absorbed.CustomerName, part)))
        setField(name, part, fieldOf(absorbed.CustomerName, part));
    }
    result.CustomerName = name;
  }
  // F3: the merge's reason.
  result.ReasonCode = ctx.reasonCode;
  // F4: created as the survivor was; modified by the merge.
  result.Edited = {
    CreateDate: survivor.Edited?.CreateDate ?? absorbed.Edited?.CreateDate ?? ctx.at,
    CreatedBy: survivor.Edited?.CreatedBy ?? absorbed.Edited?.CreatedBy ?? ctx.userId,
    ModifiedDate: ctx.at,
    ModifiedBy: ctx.userId,
  };

  result.Consents = mergeConsents(survivor.Consents, absorbed.Consents);
  result.ProfilePreferences = mergePreferences(
    survivor.ProfilePreferences,
    absorbed.ProfilePreferences,
  );
  result.Emails = mergeContacts(survivor.Emails, absorbed.Emails, emailRule, 'EmailPreferences');
  result.PhoneNumbers = mergeContacts(
    survivor.PhoneNumbers,
    absorbed.PhoneNumbers,
    phoneRule,
    'PhonePreferences',
  );
  result.Addresses = mergeContacts(
    survivor.Addresses,
    absorbed.Addresses,
    addressRule,
    'AddressPreferences',
  );
  result.CustomFields = mergeCustomFields(survivor.CustomFields, absorbed.CustomFields, ctx);
  result.Groups = mergeGroups(survivor.Groups, absorbed.Groups);
  result.ProfileTags = unionActive<StoredProfileTag>(
    survivor.ProfileTags,
    absorbed.ProfileTags,
    tagRule,
  ); // T1
  result.AlternateIds = unionActive<StoredAlternateId>(
    survivor.AlternateIds,
    absorbed.AlternateIds,
    alternateIdRule,
  ); // AI1, AI2
  return result;
}

/**
 * The alternate ids whose claims the merge moves from the absorbed profile to the survivor:
 * the absorbed profile's active pairs (AI1), in their stored order.
 */
export function alternateIdsToMove(absorbed: ProfileData): StoredAlternateId[] {
  return (absorbed.AlternateIds ?? []).filter((pair) => pair.IsActive !== false);
}

// ---- consents (K1 to K13) ----

/** The consent kept of the survivor's `s` and the absorbed profile's `a` (same type). */
export function decideConsent(
  s: StoredConsent | undefined,
  a: StoredConsent | undefined,
): StoredConsent | undefined {
  const sHeld = s && s.IsActive !== false ? s : undefined;
  const aHeld = a && a.IsActive !== false ? a : undefined;
  if (!sHeld && !aHeld) return s ?? a; // neither in force: the survivor's record, if any
  if (!sHeld) return aHeld; // K1 (an inactive consent counts as none)
  if (!aHeld) return sHeld; // K2
  const sAnswered = isAnswered(sHeld);
  const aAnswered = isAnswered(aHeld);
  if (!sAnswered && aAnswered) return aHeld; // K9
  if (sAnswered && !aAnswered) return sHeld; // K10
  const order = compareStamps(editedStamp(sHeld), editedStamp(aHeld));
  if (order === 0) {
    // K13: equal stamps: a refusal wins; between two of the same kind, the survivor's.
    return isRefusal(aHeld) && !isRefusal(sHeld) ? aHeld : sHeld;
  }
  return order > 0 ? sHeld : aHeld; // K3 to K8, K11, K12: the more recent decision
}

function isAnswered(consent: StoredConsent): boolean {
  return consent.ConsentStatus !== undefined && consent.ConsentStatus !== null
    ? consent.ConsentStatus !== NOT_SET
    : false;
}

function isRefusal(consent: StoredConsent): boolean {
  return consent.ConsentStatus === DENIED || consent.ConsentStatus === REVOKED;
}

function mergeConsents(
  survivor: readonly StoredConsent[] | undefined,
  absorbed: readonly StoredConsent[] | undefined,
): StoredConsent[] {
  return mergeKeyed(survivor, absorbed, consentRule, decideConsent);
}

// ---- preferences (P1 to P13) ----

/** The preference kept of the survivor's `s` and the absorbed profile's `a` (same key). */
export function decidePreference(
  s: StoredPreference | undefined,
  a: StoredPreference | undefined,
): StoredPreference | undefined {
  const sHeld = s && s.IsActive !== false ? s : undefined;
  const aHeld = a && a.IsActive !== false ? a : undefined;
  if (!sHeld && !aHeld) return s ?? a;
  if (!sHeld) return aHeld; // P1, P10 (an archived preference counts as none)
  if (!aHeld) return sHeld; // P2, P11
  const sMark = isDoNotContactMark(sHeld);
  const aMark = isDoNotContactMark(aHeld);
  if (sMark && !aMark) return sHeld; // P9
  if (aMark && !sMark) return aHeld; // P9
  const order = compareStamps(sHeld.LastModifiedDate, aHeld.LastModifiedDate);
  if (order === 0) {
    // P12: equal stamps: an opt-out wins; otherwise the survivor's.
    return isOptOut(aHeld) && !isOptOut(sHeld) ? aHeld : sHeld;
  }
  return order > 0 ? sHeld : aHeld; // P3 to P8, P13: the more recent decision
}

function isOptOut(preference: StoredPreference): boolean {
  return preference.PreferenceType === OPT_OUT;
}

/** The do-not-contact propagation's mark (libs/consents do-not-contact-marks.ts). */
function isDoNotContactMark(preference: StoredPreference): boolean {
  return (
    (preference.PreferenceAttributes ?? []).some((a) => a.Key === DNC_LISTS_ATTRIBUTE) ||
    (preference.SourceId ?? '').trim().toLowerCase() === DNC_SOURCE
  );
}

function mergePreferences(
  survivor: readonly StoredPreference[] | undefined,
  absorbed: readonly StoredPreference[] | undefined,
): StoredPreference[] {
  return mergeKeyed(survivor, absorbed, preferenceRule, decidePreference);
}

// ---- contact elements (C1 to C3) ----

type ContactPreferencesField = 'EmailPreferences' | 'PhonePreferences' | 'AddressPreferences';

interface MergeableContact {
  IsActive: boolean;
  IsDefault?: boolean;
  Consents: StoredConsent[];
  Edited: Edited;
}

function mergeContacts<E extends MergeableContact>(
  survivor: readonly E[] | undefined,
  absorbed: readonly E[] | undefined,
  rule: ElementRule,
  preferencesField: ContactPreferencesField,
): E[] {
  const merged = mergeKeyed(survivor, absorbed, rule, (s, a) => {
    if (!s || !a) return s ?? a; // C1
    // C2: one element: the plain fields of the more recent, nested decisions by the tables.
    const newer = compareStamps(editedStamp(s), editedStamp(a)) >= 0 ? s : a;
    const element = structuredClone(newer);
    element.IsActive = s.IsActive !== false || a.IsActive !== false;
    element.Edited = earlierCreate(newer.Edited, s.Edited, a.Edited);
    element.Consents = mergeConsents(s.Consents, a.Consents);
    setField(
      element,
      preferencesField,
      mergePreferences(
        fieldOf(s, preferencesField) as StoredPreference[] | undefined,
        fieldOf(a, preferencesField) as StoredPreference[] | undefined,
      ),
    );
    return element;
  });
  // C3: at most one default: the survivor's active default stays the default.
  const survivorDefault = (survivor ?? []).find((e) => e.IsDefault && e.IsActive !== false);
  if (survivorDefault) {
    const key = rule.key(survivorDefault);
    for (const element of merged) {
      if (rule.key(element) === key) element.IsDefault = true;
      else if (element.IsDefault) element.IsDefault = false;
    }
  }
  return merged;
}

// ---- custom fields (CF1 to CF6) ----

function mergeCustomFields(
  survivor: readonly StoredCustomField[] | undefined,
  absorbed: readonly StoredCustomField[] | undefined,
  ctx: AbsorbContext,
): StoredCustomField[] {
  return mergeKeyed(survivor, absorbed, customFieldRule, (s, a) => {
    const sHeld = s && s.IsActive !== false ? s : undefined;
    const aHeld = a && a.IsActive !== false ? a : undefined;
    if (!sHeld && !aHeld) return s ?? a;
    if (!sHeld) return aHeld; // CF1: a field the survivor lacks is blank: every rule sets it
    if (!aHeld) return sHeld;
    if ((sHeld.Value ?? '') === (aHeld.Value ?? '')) return sHeld; // CF2
    const rule = ctx.updateRuleOf(sHeld.Name ?? aHeld.Name) ?? ALWAYS;
    const sBlank = isBlank(sHeld.Value);
    const aBlank = isBlank(aHeld.Value);
    const newer = compareStamps(editedStamp(sHeld), editedStamp(aHeld)) >= 0 ? sHeld : aHeld;
    switch (rule) {
      case IF_CURRENT_VALUE_IS_BLANK: // CF4
      case NEVER: // CF6
        return sBlank ? aHeld : sHeld;
      case IF_NEW_VALUE_IS_NOT_BLANK: // CF5
        if (sBlank !== aBlank) return sBlank ? aHeld : sHeld;
        return newer;
      default: // CF3 (Always, and any rule id not known here)
        return newer;
    }
  });
}

// ---- groups, tags, alternate ids (G1, T1, AI1, AI2) ----

function mergeGroups(
  survivor: readonly StoredGroup[] | undefined,
  absorbed: readonly StoredGroup[] | undefined,
): StoredGroup[] {
  const merged = unionActive<StoredGroup>(survivor, absorbed, groupRule);
  const survivorPrimary = (survivor ?? []).find((g) => g.IsPrimary && g.IsActive !== false);
  if (survivorPrimary) {
    const key = groupRule.key(survivorPrimary);
    for (const group of merged) {
      if (groupRule.key(group) !== key && group.IsPrimary) group.IsPrimary = false;
    }
  }
  return merged;
}

/** Union by key; an element on both is the survivor's, active if active on either. */
function unionActive<E extends { IsActive: boolean }>(
  survivor: readonly E[] | undefined,
  absorbed: readonly E[] | undefined,
  rule: ElementRule,
): E[] {
  return mergeKeyed(survivor, absorbed, rule, (s, a) => {
    if (!s || !a) return s ?? a;
    const element = structuredClone(s);
    element.IsActive = s.IsActive !== false || a.IsActive !== false;
    return element;
  });
}

// ---- shared ----

/**
 * Both lists combined by the rule's key: the survivor's elements in their order (each
 * decided against the absorbed element of the same key), then the absorbed profile's
 * elements the survivor does not have. Every element returned is a copy.
 */
function mergeKeyed<E extends object>(
  survivor: readonly E[] | undefined,
  absorbed: readonly E[] | undefined,
  rule: ElementRule,
  decide: (s: E | undefined, a: E | undefined) => E | undefined,
): E[] {
  const result: E[] = [];
  const absorbedByKey = new Map<string, E>();
  for (const element of absorbed ?? []) {
    const key = rule.key(element);
    if (!absorbedByKey.has(key)) absorbedByKey.set(key, element);
  }
  const seen = new Set<string>();
  for (const element of survivor ?? []) {
    const key = rule.key(element);
    seen.add(key);
    const kept = decide(element, absorbedByKey.get(key));
    if (kept) result.push(structuredClone(kept));
  }
  for (const [key, element] of absorbedByKey) {
    if (seen.has(key)) continue;
    const kept = decide(undefined, element);
    if (kept) result.push(structuredClone(kept));
  }
  return result;
}

function editedStamp(element: { Edited?: Edited }): string | undefined {
  return element.Edited?.ModifiedDate;
}

/** >0 when `s` is more recent, <0 when `a` is, 0 when equal; a missing stamp is oldest. */
function compareStamps(s: string | undefined, a: string | undefined): number {
  const sTime = s ? Date.parse(s) : Number.NEGATIVE_INFINITY;
  const aTime = a ? Date.parse(a) : Number.NEGATIVE_INFINITY;
  const left = Number.isNaN(sTime) ? Number.NEGATIVE_INFINITY : sTime;
  const right = Number.isNaN(aTime) ? Number.NEGATIVE_INFINITY : aTime;
  return left === right ? 0 : left > right ? 1 : -1;
}

/** The kept element's stamp with the earlier creation of the two. */
function earlierCreate(kept: Edited, s: Edited | undefined, a: Edited | undefined): Edited {
  const first = [s, a]
    .filter((e): e is Edited => !!e?.CreateDate)
    .sort((x, y) => compareStamps(x.CreateDate, y.CreateDate))[0];
  return first ? { ...kept, CreateDate: first.CreateDate, CreatedBy: first.CreatedBy } : kept;
}

function isBlank(value: unknown): boolean {
  return (
    value === undefined || value === null || (typeof value === 'string' && value.trim() === '')
  );
}
