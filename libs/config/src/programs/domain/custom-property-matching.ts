import { InvalidInputError, textKey } from '@app/shared';

/*
 * Custom property criteria of the IncludeMatching / IncludeAll retrievals.
 *
 * - Every query parameter is a criterion; all must hold. `?Key=Value` wants the property
 *   with that value, `?Key` or `?Key=` wants the property with any value (even empty).
 *   A key given twice gives two criteria (both must hold).
 * - Keys and values compare trimmed and case-insensitively.
 * - Properties are inherited downwards: a filter has its program's properties, a program
 *   listed in a group has the group's, a nested group its parent's; an entry's own value
 *   for a key wins over the inherited one. An entry matches when its own properties plus
 *   the inherited ones satisfy every criterion.
 * - An entry is returned when it matches or contains (at any depth) an entry that
 *   matches. IncludeMatching returns it with only the contained entries that are returned
 *   themselves; IncludeAll with everything it contains.
 */

export interface Criterion {
  /** Lower-case, trimmed. */
  key: string;
  /** Lower-case, trimmed; undefined means "any value". */
  value?: string;
}

export interface KeyValue {
  Key: string;
  Value?: string | null;
}

/** Lower-case key → lower-case value ('' when the property has no value). */
export type PropertyView = ReadonlyMap<string, string>;

export type MatchMode = 'matching' | 'all';

function normalise(text: string): string {
  return textKey(text);
}

/** A query string as Fastify parses it: each name's value, or its values when repeated. */
export type CriteriaQuery = Readonly<Record<string, string | string[] | undefined>>;

/** The criteria of a raw query object (as Fastify parses it). */
export function parseCriteria(query: CriteriaQuery): Criterion[] {
  const criteria: Criterion[] = [];
  for (const [rawKey, rawValue] of Object.entries(query)) {
    const key = normalise(rawKey);
    if (!key) {
      throw new InvalidInputError(
        `Invalid criterion (value ${JSON.stringify(rawValue)}): the custom property name is empty`,
      );
    }
    const values = Array.isArray(rawValue) ? rawValue : [rawValue];
    for (const value of values) {
      const text = typeof value === 'string' ? normalise(value) : '';
      criteria.push({ key, value: text === '' ? undefined : text });
    }
  }
  return criteria;
}

/** The properties an entry has: the inherited ones overlaid with its own. */
export function overlay(inherited: PropertyView, own: readonly KeyValue[]): PropertyView {
  const view = new Map(inherited);
  for (const property of own) {
    view.set(normalise(property.Key), normalise(property.Value ?? ''));
  }
  return view;
}

export function satisfies(view: PropertyView, criteria: readonly Criterion[]): boolean {
  return criteria.every((criterion) => {
    const value = view.get(criterion.key);
    if (value === undefined) return false;
    return criterion.value === undefined || criterion.value === value;
  });
}

export const NO_PROPERTIES: PropertyView = new Map();

export interface MatchableProgram {
  CustomProperties: readonly KeyValue[];
  Filters: readonly { CustomProperties: readonly KeyValue[] }[];
}

export interface ProgramMatch<P extends MatchableProgram> {
  program: P;
  /** The program matches by itself (its properties and the inherited ones). */
  matches: boolean;
  /** Indexes into program.Filters of the filters that match. */
  matchingFilters: number[];
  /** Returned: it matches, or one of its filters does. */
  returned: boolean;
}

export function matchProgram<P extends MatchableProgram>(
  program: P,
  criteria: readonly Criterion[],
  inherited: PropertyView = NO_PROPERTIES,
): ProgramMatch<P> {
  const view = overlay(inherited, program.CustomProperties);
  const matches = satisfies(view, criteria);
  const matchingFilters: number[] = [];
  program.Filters.forEach((filter, index) => {
    if (satisfies(overlay(view, filter.CustomProperties), criteria)) matchingFilters.push(index);
  });
  return { program, matches, matchingFilters, returned: matches || matchingFilters.length > 0 };
}

export interface MatchableGroup {
  groupId: number;
  CustomProperties: readonly KeyValue[];
  ProgramIds: readonly number[];
  ProgramGroupIds: readonly number[];
}

export interface GroupMatch<G extends MatchableGroup, P extends MatchableProgram> {
  group: G;
  matches: boolean;
  returned: boolean;
  groups: GroupMatch<G, P>[];
  programs: ProgramMatch<P>[];
}

/**
 * Evaluates the program groups that no other group contains (the roots), each with its
 * nested groups and programs, and returns those to answer. A group met again on its own
 * path (a cycle, which writes refuse) is skipped; unknown ids are ignored.
 */
export function matchProgramGroups<G extends MatchableGroup, P extends MatchableProgram>(
  groups: readonly G[],
  programs: ReadonlyMap<number, P>,
  criteria: readonly Criterion[],
): GroupMatch<G, P>[] {
  const byId = new Map(groups.map((group) => [group.groupId, group]));
  const nested = new Set(groups.flatMap((group) => group.ProgramGroupIds));

  const visit = (group: G, inherited: PropertyView, path: Set<number>): GroupMatch<G, P> => {
    const view = overlay(inherited, group.CustomProperties);
    const matches = satisfies(view, criteria);
    const inner = new Set(path).add(group.groupId);
    const childGroups = group.ProgramGroupIds.filter((id) => byId.has(id) && !inner.has(id)).map(
      (id) => visit(byId.get(id) as G, view, inner),
    );
    const childPrograms = group.ProgramIds.filter((id) => programs.has(id)).map((id) =>
      matchProgram(programs.get(id) as P, criteria, view),
    );
    const returned =
      matches ||
      childGroups.some((child) => child.returned) ||
      childPrograms.some((child) => child.returned);
    return { group, matches, returned, groups: childGroups, programs: childPrograms };
  };

  return groups
    .filter((group) => !nested.has(group.groupId))
    .map((group) => visit(group, NO_PROPERTIES, new Set()))
    .filter((match) => match.returned);
}
