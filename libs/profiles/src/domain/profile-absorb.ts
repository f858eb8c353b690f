import { UpdateRule } from '@app/config';
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
import type { MergeDecision } from './profile-rules.port';
import { fieldOf, setField } from './profile-shape';

/*
 * Profile merge (issue 33, docs/profile-merge.md): the survivor absorbs another profile.
 * Pure: the worker calls it with both stored bodies; every rule here is a row of the
 * precedence tables in docs/profile-merge.md (row ids in the comments), each with a test in
 * profile-absorb.spec.ts. The consent (K) and preference (P) rows belong to the modules
 * owning those lists (their mergePrecedence, asked through ProfileRules): this file pairs
 * the elements by key and asks `ctx.precedence`.
 */

/** Who merges, when (the merge's acceptance time), why, and the custom fields' rules. */
export interface AbsorbContext {
  at: string;
  userId: string;
  reasonCode: string;
  /** The update rule id of a custom field by its name (absent: Always, 1). */
  updateRuleOf(fieldName: string): number | null | undefined;
  /** The consents' and preferences' precedence, as their rule modules decide (ProfileRules). */
  precedence: AbsorbPrecedence;
}

/** Which consent and which preference of one key the survivor keeps (the K and P rows). */
export interface AbsorbPrecedence {
  consent: MergeDecision<StoredConsent>;
  preference: MergeDecision<StoredPreference>;
}

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

  result.Consents = mergeConsents(survivor.Consents, absorbed.Consents, ctx);
  result.ProfilePreferences = mergePreferences(
    survivor.ProfilePreferences,
    absorbed.ProfilePreferences,
    ctx,
  );
  result.Emails = mergeContacts(
    survivor.Emails,
    absorbed.Emails,
    emailRule,
    'EmailPreferences',
    ctx,
  );
  result.PhoneNumbers = mergeContacts(
    survivor.PhoneNumbers,
    absorbed.PhoneNumbers,
    phoneRule,
    'PhonePreferences',
    ctx,
  );
  result.Addresses = mergeContacts(
    survivor.Addresses,
    absorbed.Addresses,
    addressRule,
    'AddressPreferences',
    ctx,
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

// ---- consents and preferences: the rule modules' rows, paired here by key ----

function mergeConsents(
  survivor: readonly StoredConsent[] | undefined,
  absorbed: readonly StoredConsent[] | undefined,
  ctx: AbsorbContext,
): StoredConsent[] {
  return mergeKeyed(survivor, absorbed, consentRule, ctx.precedence.consent);
}

function mergePreferences(
  survivor: readonly StoredPreference[] | undefined,
  absorbed: readonly StoredPreference[] | undefined,
  ctx: AbsorbContext,
): StoredPreference[] {
  return mergeKeyed(survivor, absorbed, preferenceRule, ctx.precedence.preference);
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
  ctx: AbsorbContext,
): E[] {
  const merged = mergeKeyed(survivor, absorbed, rule, (s, a) => {
    if (!s || !a) return s ?? a; // C1
    // C2: one element: the plain fields of the more recent, nested decisions by the tables.
    const newer = compareStamps(editedStamp(s), editedStamp(a)) >= 0 ? s : a;
    const element = structuredClone(newer);
    element.IsActive = s.IsActive !== false || a.IsActive !== false;
    element.Edited = earlierCreate(newer.Edited, s.Edited, a.Edited);
    element.Consents = mergeConsents(s.Consents, a.Consents, ctx);
    setField(
      element,
      preferencesField,
      mergePreferences(
        fieldOf(s, preferencesField) as StoredPreference[] | undefined,
        fieldOf(a, preferencesField) as StoredPreference[] | undefined,
        ctx,
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
    const rule = ctx.updateRuleOf(sHeld.Name ?? aHeld.Name) ?? UpdateRule.Always;
    const sBlank = isBlank(sHeld.Value);
    const aBlank = isBlank(aHeld.Value);
    const newer = compareStamps(editedStamp(sHeld), editedStamp(aHeld)) >= 0 ? sHeld : aHeld;
    switch (rule) {
      case UpdateRule.IfCurrentValueIsBlank: // CF4
      case UpdateRule.Never: // CF6
        return sBlank ? aHeld : sHeld;
      case UpdateRule.IfNewValueIsNotBlank: // CF5
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

/** When an element was last decided (Edited.ModifiedDate): what the precedence compares. */
export function editedStamp(element: { Edited?: Edited }): string | undefined {
  return element.Edited?.ModifiedDate;
}

/** >0 when `s` is more recent, <0 when `a` is, 0 when equal; a missing stamp is oldest. */
export function compareStamps(s: string | undefined, a: string | undefined): number {
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
