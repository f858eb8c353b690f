import { isDeepStrictEqual } from 'node:util';
import {
  type CallerScope,
  canSeeConsentType,
  canSeeCustomField,
  canSeePreference,
  type ProfileView,
  writerView,
} from './profile-view';
import type {
  ProfileData,
  StoredConsentAssociation,
  StoredCustomField,
} from './profile-data.schema';
import {
  type BodyOf,
  type ConsentBody,
  type ElementBody,
  fieldOf,
  listOf,
  type PreferenceBody,
  type ProfileBody,
} from './profile-shape';
import { PROFILE_COLLECTIONS, type ElementRule } from './element-rules';
import type { ProfileWireFormat } from './profile-wire-format';

/*
 * The user-group scope on profile writes (docs/api.md, "Permissions on profile data"). A write may not name a
 * custom field, consent type or program outside the writer's scope, nor write consents or
 * preferences without write access to that area. Elements that the write repeats exactly
 * as the writer sees them stored are not writes (a GET sent back as a PUT stays allowed).
 * Elements the writer cannot see are kept by overwrites and patches (see hiddenFrom).
 */

const PREFERENCE_COLLECTIONS = new Set([
  'ProfilePreferences',
  'EmailPreferences',
  'PhonePreferences',
  'AddressPreferences',
]);

/* Which element a collection holds: an element of a collection is of its kind. */
const isCustomField = (
  collection: string,
  _element: ElementBody,
): _element is BodyOf<StoredCustomField> => collection === 'CustomFields';
const isConsentOrAssociation = (
  collection: string,
  _element: ElementBody,
): _element is ConsentBody | BodyOf<StoredConsentAssociation> =>
  collection === 'Consents' || collection === 'ConsentAssociations';
const isPreference = (collection: string, _element: ElementBody): _element is PreferenceBody =>
  PREFERENCE_COLLECTIONS.has(collection);

/** Whether a stored element of `collection` is outside what the view shows. */
export function hiddenFrom(view: ProfileView, collection: string, element: ElementBody): boolean {
  if (!view.scope) return false;
  if (isCustomField(collection, element)) return !canSeeCustomField(view, element.Name);
  if (isConsentOrAssociation(collection, element))
    return !canSeeConsentType(view, element.ConsentType);
  if (isPreference(collection, element)) return !canSeePreference(view, element);
  return false;
}

/**
 * What the body writes outside the writer's scope, one message per element (empty when
 * all is allowed). `stored` is the profile as the writer sees it (wire shape), if any.
 */
export function scopeViolations(
  body: ProfileBody,
  view: ProfileView,
  /** The stored profile in its wire shape. */
  stored: object | undefined,
): string[] {
  const scope = view.scope;
  if (!scope) return [];
  const problems: string[] = [];
  walk(body, stored, PROFILE_COLLECTIONS, '', (at, collection, element) => {
    if (isCustomField(collection, element) && !canSeeCustomField(view, element.Name)) {
      problems.push(`${at}.Name (value ${JSON.stringify(element.Name)}) is ${OUTSIDE}`);
    }
    if (isConsentOrAssociation(collection, element)) {
      if (collection === 'Consents' && scope.consents !== 'write')
        problems.push(`${at}: ${NO_WRITE} consents`);
      else if (!canSeeConsentType(view, element.ConsentType))
        problems.push(
          `${at}.ConsentType (value ${JSON.stringify(element.ConsentType)}) is ${OUTSIDE}`,
        );
    }
    if (isPreference(collection, element)) {
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
  return scopeViolations(body as ProfileBody, view, wire);
}

const OUTSIDE = "outside your user group's permissions";
const NO_WRITE = 'your user group has no write access to';

/**
 * Visits every element of the body's collections (nested ones too) that differs from the
 * stored element with the same key; `at` locates it (`Emails[0].Consents[1]`).
 */
function walk(
  body: object,
  stored: object | undefined,
  collections: Record<string, ElementRule>,
  path: string,
  visit: (at: string, collection: string, element: ElementBody) => void,
): void {
  for (const [collection, rule] of Object.entries(collections)) {
    const elements: readonly unknown[] | null = listOf(fieldOf(body, collection));
    if (!elements) continue;
    const storedElements = listOf(fieldOf(stored, collection)) ?? [];
    elements.forEach((element, index) => {
      if (!element || typeof element !== 'object') return;
      const sent: ElementBody = element;
      const match = storedElements.find((candidate) => rule.key(candidate) === rule.key(sent));
      const at = `${path}${collection}[${index}]`;
      if (!match || !sameElement(sent, match)) visit(at, collection, sent);
      walk(sent, match, rule.nested, `${at}.`, visit);
    });
  }
}

/** The fields the body sends equal the stored ones (read-only and nested ones aside). */
function sameElement(sent: ElementBody, stored: ElementBody): boolean {
  return Object.entries(sent).every(
    ([field, value]) =>
      field === 'Edited' ||
      field.endsWith('Preferences') ||
      field === 'Consents' ||
      field === 'ConsentAssociations' ||
      isDeepStrictEqual(value, fieldOf(stored, field)),
  );
}

/**
 * What a stored profile holds outside the writer's scope (a merge would move or decide on
 * it): its whole wire shape checked as if the writer wrote it. Empty when unrestricted.
 */
export function storedScopeViolations(
  profile: { profileId: number; data?: ProfileData },
  scope: CallerScope | undefined,
  wireFormat: ProfileWireFormat,
): string[] {
  if (!scope || !profile.data) return [];
  const whole = wireFormat.render(profile.profileId, profile.data, { implied: false });
  return scopeViolations(whole as ProfileBody, writerView(scope), undefined).map(
    (problem) => `Profile ${profile.profileId}: ${problem}`,
  );
}
