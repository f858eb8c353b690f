import { type Caller, grants, type PermissionArea } from '@app/auth';
import { textKey } from '@app/shared';

/**
 * What one retrieval may show: the caller's data scope (spec rule 1: only what the
 * user group may see) and the `implied` query flag. Every mapper that returns profile
 * data (retrieval, searches, history) takes one.
 */
export interface ProfileView {
  /** true: implied preferences are returned as well as expressed ones. */
  implied: boolean;
  /**
   * true: inactive (archived or removed) preferences are returned too, marked
   * `IsActive: false`; only a bulk export shows them.
   */
  archived?: boolean;
  /** Absent: everything is visible (internal use, and unrestricted groups). */
  scope?: NormalisedScope;
}

export type AreaAccess = 'none' | 'read' | 'write';

/**
 * What a caller's user group may see and write of a profile, in a form stored with each
 * write (the worker applies an overwrite or a patch within the writer's scope): the
 * group's lists of programs, consent types and custom fields (absent: all), and its
 * access to the consents and preferences areas (none: that data is neither shown nor
 * writable).
 */
export interface CallerScope {
  programs?: string[];
  consentTypes?: string[];
  customFields?: string[];
  consents: AreaAccess;
  preferences: AreaAccess;
}

/** A CallerScope with its names normalised (textKey) for lookups. */
export interface NormalisedScope {
  programs?: Set<string>;
  consentTypes?: Set<string>;
  customFields?: Set<string>;
  consents: AreaAccess;
  preferences: AreaAccess;
}

/** The OpenAPI description of the `implied` query flag. */
export const IMPLIED_FLAG =
  'true: implied preferences (MatchType "Implied") are returned as well as expressed ones; default false';

/** Everything, implied preferences included: what the worker works on. */
export const FULL_VIEW: ProfileView = { implied: true };

function accessTo(caller: Caller, area: PermissionArea): AreaAccess {
  if (grants(caller.group, area, 'write')) return 'write';
  return grants(caller.group, area, 'read') ? 'read' : 'none';
}

/** The caller's scope; undefined when the group is unrestricted (sees and writes all). */
export function scopeOf(caller: Caller): CallerScope | undefined {
  const lists = caller.group.scope ?? {};
  const scope: CallerScope = {
    ...lists,
    consents: accessTo(caller, 'consents'),
    preferences: accessTo(caller, 'preferences'),
  };
  const unrestricted =
    !lists.programs &&
    !lists.consentTypes &&
    !lists.customFields &&
    scope.consents === 'write' &&
    scope.preferences === 'write';
  return unrestricted ? undefined : scope;
}

export function normaliseScope(scope: CallerScope | undefined): NormalisedScope | undefined {
  if (!scope) return undefined;
  const set = (names: string[] | undefined) =>
    names ? new Set(names.map((name) => textKey(name))) : undefined;
  return {
    programs: set(scope.programs),
    consentTypes: set(scope.consentTypes),
    customFields: set(scope.customFields),
    consents: scope.consents,
    preferences: scope.preferences,
  };
}

/**
 * Each caller's normalised scope, made once: a caller is frozen and kept by the auth cache
 * for as long as its user and client are (a changed group makes a new caller), and every
 * GET, search and decision built these Sets again. Read-only, like the caller.
 */
const normalisedScopes = new WeakMap<Caller, NormalisedScope | undefined>();

function normalisedScopeOf(caller: Caller): NormalisedScope | undefined {
  if (normalisedScopes.has(caller)) return normalisedScopes.get(caller);
  const scope = normaliseScope(scopeOf(caller));
  normalisedScopes.set(caller, scope);
  return scope;
}

/** The view of a caller's retrieval; `implied` is the query flag (default false). */
export function viewOf(caller: Caller, options: { implied?: boolean } = {}): ProfileView {
  return { implied: options.implied ?? false, scope: normalisedScopeOf(caller) };
}

/** A string that is equal for two views exactly when they show the same (cache keys). */
export function viewKey(view: ProfileView): string {
  const scope = view.scope;
  const implied = (view.implied ? 'i' : 'e') + (view.archived ? 'a' : '');
  if (!scope) return implied;
  const list = (names: Set<string> | undefined) => (names ? [...names].sort() : null);
  return `${implied}${JSON.stringify([
    scope.consents,
    scope.preferences,
    list(scope.programs),
    list(scope.consentTypes),
    list(scope.customFields),
  ])}`;
}

/** The view a stored write was made with: implied preferences included. */
export function writerView(scope: CallerScope | undefined): ProfileView {
  return { implied: true, scope: normaliseScope(scope) };
}

const allows = (names: Set<string> | undefined, value: unknown) =>
  names === undefined || names.has(textKey(value));

export function canSeeProgram(view: ProfileView, programId: unknown): boolean {
  return view.scope?.preferences !== 'none' && allows(view.scope?.programs, programId);
}

export function canSeeConsentType(view: ProfileView, consentType: unknown): boolean {
  return view.scope?.consents !== 'none' && allows(view.scope?.consentTypes, consentType);
}

export function canSeeCustomField(view: ProfileView, name: unknown): boolean {
  return allows(view.scope?.customFields, name);
}

/** A preference is implied when its MatchType says so (case-insensitive); see docs/preferences-consents.md. */
export function isImpliedPreference(preference: { MatchType?: string | null }): boolean {
  return textKey(preference.MatchType) === 'implied';
}

/** Whether a preference is shown: its program is in scope, and implied ones only on request. */
export function canSeePreference(
  view: ProfileView,
  preference: { ProgramId?: string | null; MatchType?: string | null },
): boolean {
  return (
    canSeeProgram(view, preference.ProgramId) && (view.implied || !isImpliedPreference(preference))
  );
}
