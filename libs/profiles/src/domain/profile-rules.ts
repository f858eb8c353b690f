import { MERGE_HISTORY_CATEGORY } from './profile-history.schema';
import type { AbsorbPrecedence } from './profile-absorb';
import type { ProfileData, StoredConsent, StoredPreference } from './profile-data.schema';
import type { WriteContext } from './apply-profile-write';
import type { ElementBody } from './profile-shape';
import type {
  MergeDecision,
  MergePrecedence,
  ProfileBody,
  ProfileHistoryRule,
  ProfileRuleModule,
  ProfileSearchRule,
  RuleWriteKind,
} from './profile-rules.port';
import type { ProfileVocabulary } from './profile-vocabulary';
import type { ImportFlags } from './profile-write.schema';

/**
 * The rule modules of the write pipeline, in the order the app composed them (each
 * module's step sees what the previous ones made). Provided by ProfileRulesModule.
 */
export class ProfileRules {
  private readonly kinds = new Map<string, RuleWriteKind>();
  private readonly searches = new Map<string, ProfileSearchRule>();
  private readonly histories = new Map<string, ProfileHistoryRule>();
  private consentPrecedence?: MergeDecision<StoredConsent>;
  private preferencePrecedence?: MergePrecedence['preference'];

  constructor(readonly modules: readonly ProfileRuleModule[]) {
    for (const module of modules) {
      for (const [kind, apply] of Object.entries(module.writeKinds ?? {})) {
        if (!apply) continue;
        if (this.kinds.has(kind))
          throw new Error(`Two rule modules claim the write kind "${kind}" (${module.name})`);
        this.kinds.set(kind, apply);
      }
      for (const search of module.searches ?? []) {
        if (this.searches.has(search.kind))
          throw new Error(`Two rule modules claim the search "${search.kind}" (${module.name})`);
        this.searches.set(search.kind, search);
      }
      for (const history of module.history ?? []) {
        if (this.histories.has(history.category))
          throw new Error(
            `Two rule modules claim the history category "${history.category}" (${module.name})`,
          );
        this.histories.set(history.category, history);
      }
      const precedence = module.mergePrecedence;
      if (precedence?.consent) {
        if (this.consentPrecedence)
          throw new Error(`Two rule modules claim the consents' merge precedence (${module.name})`);
        this.consentPrecedence = precedence.consent;
      }
      if (precedence?.preference) {
        if (this.preferencePrecedence)
          throw new Error(
            `Two rule modules claim the preferences' merge precedence (${module.name})`,
          );
        this.preferencePrecedence = precedence.preference;
      }
    }
  }

  /**
   * The merge's precedence for consents and preferences, as the modules owning them decide
   * (docs/profile-merge.md). A list no module claims keeps the survivor's element, else the
   * absorbed one; a preference is marked (P9) when any module says it wrote it as a mark.
   */
  mergePrecedence(): AbsorbPrecedence {
    const markers = this.modules.flatMap((module) => {
      const marks = module.mergePrecedence?.marksPreference;
      return marks ? [marks] : [];
    });
    const marked = (preference: StoredPreference) => markers.some((marks) => marks(preference));
    const preference = this.preferencePrecedence;
    return {
      consent: this.consentPrecedence ?? keepSurvivorElement,
      preference: preference ? (s, a) => preference(s, a, marked) : keepSurvivorElement,
    };
  }

  problems(
    body: ProfileBody,
    vocabulary: ProfileVocabulary,
    kind: 'create' | 'merge' | 'overwrite',
    current?: ProfileData,
  ): string[] {
    return this.modules.flatMap(
      (module) => module.problems?.(body, vocabulary, kind, current) ?? [],
    );
  }

  /** The modules' importProblems (see ProfileRuleModule). */
  importProblems(
    body: ProfileBody,
    current: ProfileData | undefined,
    flags: ImportFlags,
  ): string[] {
    return this.modules.flatMap((module) => module.importProblems?.(body, current, flags) ?? []);
  }

  /** The modules' importRecordProblems (see ProfileRuleModule). */
  importRecordProblems(body: ProfileBody, now: number): string[] {
    return this.modules.flatMap((module) => module.importRecordProblems?.(body, now) ?? []);
  }

  derive(
    before: ProfileData | undefined,
    after: ProfileData,
    vocabulary: ProfileVocabulary,
    ctx: WriteContext,
  ): ProfileData {
    return this.inTurn(after, (module, data) => module.derive?.(before, data, vocabulary, ctx));
  }

  afterMerge(
    data: ProfileData,
    body: ProfileBody,
    ctx: WriteContext,
    hidden: (collection: string, element: ElementBody) => boolean,
  ): ProfileData {
    return this.inTurn(data, (module, next) => module.afterMerge?.(next, body, ctx, hidden));
  }

  /** The data through each module's step in turn (a module without the step passes it on). */
  private inTurn(
    data: ProfileData,
    step: (module: ProfileRuleModule, data: ProfileData) => ProfileData | undefined,
  ): ProfileData {
    return this.modules.reduce((next, module) => step(module, next) ?? next, data);
  }

  /**
   * What is due as of `asOfIso` marked by every module, with each module's count by name.
   * Unchanged data is returned as the same object, so a write that finds nothing due
   * changes nothing (not even Edited).
   */
  expire(
    data: ProfileData,
    asOfIso: string,
    ctx: WriteContext,
  ): { data: ProfileData; counts: Record<string, number> } {
    const counts: Record<string, number> = {};
    const asOf = Date.parse(asOfIso);
    if (Number.isNaN(asOf)) return { data, counts };
    let next = data;
    for (const module of this.modules) {
      if (!module.expire) continue;
      const result = module.expire(next, asOf, ctx);
      counts[module.name] = result.count;
      next = result.data;
    }
    if (next === data) return { data, counts };
    return {
      data: { ...next, Edited: { ...data.Edited, ModifiedDate: ctx.at, ModifiedBy: ctx.userId } },
      counts,
    };
  }

  /**
   * The earliest moment something of an active profile becomes due, or undefined. The
   * worker stores it with every save (`Profile.nextExpiryAt`), and the expiry job asks only
   * for profiles whose moment has come.
   */
  nextDue(data: ProfileData | undefined): Date | undefined {
    if (!data || data.IsActive === false) return undefined;
    let earliest = Infinity;
    for (const module of this.modules) {
      const due = module.nextDue?.(data);
      if (due !== undefined && due !== null && due < earliest) earliest = due;
    }
    return earliest === Infinity ? undefined : new Date(earliest);
  }

  /** How a write kind owned by a rule module applies, if one owns it. */
  writeKind(kind: string): RuleWriteKind | undefined {
    return this.kinds.get(kind);
  }

  /** The profile search of that kind a rule module owns, if one owns it. */
  search(kind: string): ProfileSearchRule | undefined {
    return this.searches.get(kind);
  }

  /** Adds the search keys every module derives from the data. */
  addSearchKeys(data: ProfileData, keys: Set<string>): void {
    for (const module of this.modules) {
      for (const key of module.searchKeys?.(data) ?? []) keys.add(key);
    }
  }

  /** The history category a rule module owns, if one owns it. */
  history(category: string): ProfileHistoryRule | undefined {
    return this.histories.get(category);
  }

  /** Every module's history categories, in the modules' order. */
  historyRules(): ProfileHistoryRule[] {
    return [...this.histories.values()];
  }

  /** The history categories whose entries form the profile's hash chain (history-chain.ts). */
  chainedCategories(): string[] {
    return [
      ...this.historyRules()
        .filter((rule) => rule.chained)
        .map((rule) => rule.category),
      // A merge's own entry (profile-merge-history.ts) links the merge into the chain.
      MERGE_HISTORY_CATEGORY,
    ];
  }
}

function keepSurvivorElement<E>(survivor: E | undefined, absorbed: E | undefined): E | undefined {
  return survivor ?? absorbed;
}
