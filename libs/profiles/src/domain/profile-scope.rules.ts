import { isDeepStrictEqual } from 'node:util';
import {
  type CallerScope,
  canSeeConsentType,
  canSeeCustomField,
  canSeePreference,
  type ProfileView,
  writerView,
} from './profile-view';
import type { ProfileData } from './profile-data.schema';
import { PROFILE_COLLECTIONS, type ElementRule } from './element-rules';
import type { ProfileWireFormat } from './profile-wire-format';

/*
 * The user-group scope on profile writes (docs/api.md, "Permissions on profile data"). A write may not name a
 * custom field, consent type or program outside the writer's scope, nor write consents or
 * preferences without write access to that area. Elements that the write repeats exactly
 * as the writer sees them stored are not writes (a GET sent back as a PUT stays allowed).
 * Elements the writer cannot see are kept by overwrites and patches (see hiddenFrom).
 */

type Element = Record<string, unknown>;

const PREFERENCE_COLLECTIONS = new Set([
  'ProfilePreferences',
  'EmailPreferences',
  'PhonePreferences',
  'AddressPreferences',
]);

/** Whether a stored element of `collection` is outside what the view shows. */
export function hiddenFrom(view: ProfileView, collection: string, element: Element): boolean {
  if (!view.scope) return false;
  if (collection === 'CustomFields') return !canSeeCustomField(view, element.Name);
  if (collection === 'Consents' || collection === 'ConsentAssociations')
    return !canSeeConsentType(view, element.ConsentType);
  if (PREFERENCE_COLLECTIONS.has(collection))
    return !canSeePreference(view, element as { ProgramId?: string; MatchType?: string });
  return false;
}

/**
 * What the body writes outside the writer's scope, one message per element (empty when
 * all is allowed). `stored` is the profile as the writer sees it (wire shape), if any.
 */
export function scopeViolations(
  body: Element,
  view: ProfileView,
  stored: Element | undefined,
): string[] {
  const scope = view.scope;
  if (!scope) return [];
  const problems: string[] = [];
  walk(body, stored, PROFILE_COLLECTIONS, '', (at, collection, element) => {
    if (collection === 'CustomFields' && !canSeeCustomField(view, element.Name)) {
      problems.push(`${at}.Name (value ${JSON.stringify(element.Name)}) is ${OUTSIDE}`);
    }
    if (collection === 'Consents') {
      if (scope.consents !== 'write') problems.push(`${at}: ${NO_WRITE} consents`);
      else if (!canSeeConsentType(view, element.ConsentType))
        problems.push(
          `${at}.ConsentType (value ${JSON.stringify(element.ConsentType)}) is ${OUTSIDE}`,
        );
    }
    if (collection === 'ConsentAssociations' && !canSeeConsentType(view, element.ConsentType)) {
      problems.push(
        `${at}.ConsentType (value ${JSON.stringify(element.ConsentType)}) is ${OUTSIDE}`,
      );
    }
    if (PREFERENCE_COLLECTIONS.has(collection)) {
      if (scope.preferences !== 'write') problems.push(`${at}: ${NO_WRITE} preferences`);
      else if (!canSeePreference({ ...view, implied: true }, element))
        problems.push(`${at}.ProgramId (value ${JSON.stringify(element.ProgramId)}) is ${OUTSIDE}`);
    }
  });
  return problems;
}

/** scopeViolations of a write by a caller with `scope`, against the stored profile if any. */
export function writeScopeViolations(
  body: object,
  scope: CallerScope | undefined,
  wireFormat: ProfileWireFormat,
  stored?: { profileId: number; data?: ProfileData },
): string[] {
  if (!scope) return [];
  const view = writerView(scope);
  const wire = stored?.data ? wireFormat.render(stored.profileId, stored.data, view) : undefined;
  return scopeViolations(body as Element, view, wire);
}

const OUTSIDE = "outside your user group's permissions";
const NO_WRITE = 'your user group has no write access to';

/**
 * Visits every element of the body's collections (nested ones too) that differs from the
 * stored element with the same key; `at` locates it (`Emails[0].Consents[1]`).
 */
function walk(
  body: Element,
  stored: Element | undefined,
  collections: Record<string, ElementRule>,
  path: string,
  visit: (at: string, collection: string, element: Element) => void,
): void {
  for (const [collection, rule] of Object.entries(collections)) {
    const elements = body[collection];
    if (!Array.isArray(elements)) continue;
    const storedElements = (stored?.[collection] as Element[] | undefined) ?? [];
    elements.forEach((element: unknown, index) => {
      if (!element || typeof element !== 'object') return;
      const sent = element as Element;
      const match = storedElements.find((candidate) => rule.key(candidate) === rule.key(sent));
      const at = `${path}${collection}[${index}]`;
      if (!match || !sameElement(sent, match)) visit(at, collection, sent);
      walk(sent, match, rule.nested, `${at}.`, visit);
    });
  }
}

/** The fields the body sends equal the stored ones (read-only and nested ones aside). */
function sameElement(sent: Element, stored: Element): boolean {
  return Object.entries(sent).every(
    ([field, value]) =>
      field === 'Edited' ||
      field.endsWith('Preferences') ||
      field === 'Consents' ||
      field === 'ConsentAssociations' ||
      isDeepStrictEqual(value, stored[field]),
  );
}
