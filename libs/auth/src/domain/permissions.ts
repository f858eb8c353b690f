import { isPlainName } from './identifiers';

/**
 * The permission model: a tenant defines user groups; a group grants read or write
 * access per area; every user belongs to one group. Pure code, no framework.
 */

export const PERMISSION_AREAS = [
  'profiles',
  'configuration',
  'preferences',
  'consents',
  'history',
  // Event subscriptions and event retrieval (the notes' "Event Data -> View" is events:read).
  'events',
  // The counts of consents and preferences (docs/reports.md): read only.
  'reports',
  // Profile merges (docs/profile-merge.md): write to merge (profiles:write is needed too).
  'merge',
] as const;

/**
 * Areas added after clients existed: an Administrators group stored before an area existed
 * has no entry for it, and is granted it (write) until its permissions name it.
 */
const AREAS_ADDED_LATER: readonly PermissionArea[] = ['events', 'reports', 'merge'];

export type PermissionArea = (typeof PERMISSION_AREAS)[number];

/** 'write' implies 'read'. */
export type PermissionAccess = 'read' | 'write';

export const PERMISSION_ACCESS_LEVELS: readonly PermissionAccess[] = ['read', 'write'];

export interface Permission {
  area: PermissionArea;
  access: PermissionAccess;
}

/**
 * Which profile data a group may see and write, beyond its area grants. Each list is
 * optional: absent means unrestricted, so existing groups keep their meaning. Names
 * compare case-insensitively (program ids, consent type names, custom field names).
 */
export interface DataScope {
  programs?: string[];
  consentTypes?: string[];
  customFields?: string[];
}

/** A tenant's user group as the rest of the service sees it. */
export interface UserGroup {
  name: string;
  permissions: Permission[];
  /** Absent: the group sees all programs, consent types and custom fields. */
  scope?: DataScope;
}

/** The group of a new client's first user. */
export const ADMINISTRATORS_GROUP = 'Administrators';

export function administratorsGroup(): UserGroup {
  return {
    name: ADMINISTRATORS_GROUP,
    permissions: PERMISSION_AREAS.map((area) => ({ area, access: 'write' as const })),
  };
}

export function isPermissionArea(value: string): value is PermissionArea {
  return (PERMISSION_AREAS as readonly string[]).includes(value);
}

export function isPermissionAccess(value: string): value is PermissionAccess {
  return (PERMISSION_ACCESS_LEVELS as readonly string[]).includes(value);
}

/** True when the group grants `access` (or more) on `area`. */
export function grants(group: UserGroup, area: PermissionArea, access: PermissionAccess): boolean {
  if (
    group.name === ADMINISTRATORS_GROUP &&
    AREAS_ADDED_LATER.includes(area) &&
    !group.permissions.some((permission) => permission.area === area)
  ) {
    return true;
  }
  const rank = PERMISSION_ACCESS_LEVELS.indexOf(access);
  return group.permissions.some(
    (permission) =>
      permission.area === area && PERMISSION_ACCESS_LEVELS.indexOf(permission.access) >= rank,
  );
}

/**
 * Parses `profiles:write,configuration:read` (the admin CLI's notation). Throws an
 * Error naming the first bad entry. An area listed twice keeps the higher access.
 */
export function parsePermissionList(text: string): Permission[] {
  const byArea = new Map<PermissionArea, PermissionAccess>();
  for (const raw of text.split(',')) {
    const entry = raw.trim();
    if (!entry) continue;
    const [area, access, ...rest] = entry.split(':').map((part) => part.trim());
    if (
      rest.length > 0 ||
      !area ||
      !access ||
      !isPermissionArea(area) ||
      !isPermissionAccess(access)
    ) {
      throw new Error(
        `Invalid permission "${entry}": expected <area>:<read|write> with area one of ${PERMISSION_AREAS.join(', ')}`,
      );
    }
    const previous = byArea.get(area);
    byArea.set(area, previous === 'write' ? 'write' : access);
  }
  return normalizePermissions([...byArea].map(([area, access]) => ({ area, access })));
}

/** One entry per area (the highest access wins), in the order of PERMISSION_AREAS. */
export function normalizePermissions(permissions: Permission[]): Permission[] {
  const result: Permission[] = [];
  for (const area of PERMISSION_AREAS) {
    const listed = permissions.filter((permission) => permission.area === area);
    if (listed.length === 0) continue;
    result.push({ area, access: listed.some((p) => p.access === 'write') ? 'write' : 'read' });
  }
  return result;
}

/**
 * The scope as stored: names trimmed, blanks and duplicates dropped; undefined when no
 * list is set. Throws an Error naming a name that is too long.
 */
export function normalizeScope(scope: DataScope): DataScope | undefined {
  const result: DataScope = {};
  for (const key of ['programs', 'consentTypes', 'customFields'] as const) {
    const names = scope[key];
    if (!names) continue;
    const cleaned = [...new Set(names.map((name) => name.trim()).filter(Boolean))];
    const tooLong = cleaned.find((name) => name.length > 256);
    if (tooLong)
      throw new Error(`Invalid ${key} entry "${tooLong.slice(0, 40)}...": at most 256 characters`);
    result[key] = cleaned;
  }
  return Object.keys(result).length ? result : undefined;
}

/** Group names: visible text without leading or trailing space, at most 100 characters. */
export function isValidGroupName(name: string): boolean {
  return isPlainName(name, 100);
}
