import type { Caller, DataScope } from '@app/auth';
import { normText } from '../domain/element-rules';

/**
 * What one retrieval may show: the caller's data scope (spec rule 1: only what the
 * user group may see) and the `implied` query flag. Every mapper that returns profile
 * data (retrieval, searches, history) takes one.
 */
export interface ProfileView {
  /** true: implied preferences are returned as well as expressed ones. */
  implied: boolean;
  /** Absent: everything is visible (internal use, and unrestricted groups). */
  scope?: NormalisedScope;
}

/** A DataScope with its names normalised (normText) for lookups. */
export interface NormalisedScope {
  programs?: Set<string>;
  consentTypes?: Set<string>;
  customFields?: Set<string>;
}

/** Everything, implied preferences included: what the worker works on. */
export const FULL_VIEW: ProfileView = { implied: true };

export function normaliseScope(scope: DataScope | undefined): NormalisedScope | undefined {
  if (!scope) return undefined;
  const set = (names: string[] | undefined) =>
    names ? new Set(names.map((name) => normText(name))) : undefined;
  return {
    programs: set(scope.programs),
    consentTypes: set(scope.consentTypes),
    customFields: set(scope.customFields),
  };
}

/** The view of a caller's retrieval; `implied` is the query flag (default false). */
export function viewOf(caller: Caller, options: { implied?: boolean } = {}): ProfileView {
  return { implied: options.implied ?? false, scope: normaliseScope(caller.group.scope) };
}

const allows = (names: Set<string> | undefined, value: unknown) =>
  names === undefined || names.has(normText(value));

export function canSeeProgram(view: ProfileView, programId: unknown): boolean {
  return allows(view.scope?.programs, programId);
}

export function canSeeConsentType(view: ProfileView, consentType: unknown): boolean {
  return allows(view.scope?.consentTypes, consentType);
}

export function canSeeCustomField(view: ProfileView, name: unknown): boolean {
  return allows(view.scope?.customFields, name);
}

/** A preference is implied when its MatchType says so (case-insensitive); see README. */
export function isImpliedPreference(preference: { MatchType?: string }): boolean {
  return normText(preference.MatchType) === 'implied';
}

/** Whether a preference is shown: its program is in scope, and implied ones only on request. */
export function canSeePreference(
  view: ProfileView,
  preference: { ProgramId?: string; MatchType?: string },
): boolean {
  return (
    canSeeProgram(view, preference.ProgramId) && (view.implied || !isImpliedPreference(preference))
  );
}
