import { textKey } from '@app/shared';
import type { ConsentTypeDetails } from '../consent-types/mapping/consent-type.mapper';
import type { ResolvedCustomField } from '../custom-fields/services/custom-field-catalog.service';
import { checkCustomFieldValue } from '../custom-fields/domain/custom-field-value';
import type { StoredProgram } from '../programs/domain/program.schema';
import { canonicalChannel } from '../programs/domain/program-vocabulary';
import type { TypeEntry } from '../types/services/type-catalog.service';
import type { TypeKind } from '../types/domain/type-kind';

/**
 * One client's configuration as a profile write needs it, loaded at once and looked up
 * by name (trimmed, spaces folded, case-insensitive). Immutable: a change of the
 * configuration makes the reader build a new one.
 */
export class ClientVocabulary {
  private readonly types: Map<string, TypeEntry>;
  private readonly consentTypes: Map<string, ConsentTypeDetails>;
  private readonly customFields: Map<string, ResolvedCustomField>;
  private readonly programs: Map<number, VocabularyProgram>;
  private readonly filters: Map<number, VocabularyFilter>;
  /** Whether some consent type has a former name (renaming stored references can be skipped otherwise). */
  readonly renamedConsentTypes: boolean = false;

  constructor(
    readonly stamp: string,
    types: Record<TypeKind, TypeEntry[]>,
    consentTypes: ConsentTypeDetails[],
    customFields: ResolvedCustomField[],
    programs: StoredProgram[],
  ) {
    this.types = new Map(
      Object.entries(types).flatMap(([kind, entries]) =>
        entries.map((entry) => [`${kind}:${textKey(entry.TypeName)}`, entry] as const),
      ),
    );
    // Current names first: a former name never shadows a type's current one (names claimed
    // before former names were kept may have passed to another type).
    this.consentTypes = new Map(consentTypes.map((type) => [textKey(type.TypeName), type]));
    for (const type of consentTypes) {
      for (const former of type.FormerNames) {
        if (!this.consentTypes.has(textKey(former))) {
          this.consentTypes.set(textKey(former), type);
          this.renamedConsentTypes = true;
        }
      }
    }
    this.customFields = new Map(
      customFields.map((field) => [textKey(field.definition.Name), field]),
    );
    this.programs = new Map(
      programs.map((program) => [
        program.programId,
        { IsActive: program.IsActive !== false, ProgramType: program.ProgramType },
      ]),
    );
    this.filters = new Map(
      programs.flatMap((program) =>
        program.Filters.map(
          (filter) =>
            [
              filter.ID,
              toVocabularyFilter(program, filter, (name) => this.consentTypeName(name) ?? name),
            ] as const,
        ),
      ),
    );
  }

  /** The program of that id (active or not). */
  program(programId: number): VocabularyProgram | undefined {
    return this.programs.get(programId);
  }

  /** The filter of that id (filter ids are unique per client), with its program's id. */
  filter(filterId: number): VocabularyFilter | undefined {
    return this.filters.get(filterId);
  }

  /** The canonical channel of a preference's ChannelId ("SMS" gives "Text/SMS"). */
  channel(value: string): string | undefined {
    return canonicalChannel(value);
  }

  type(kind: TypeKind, name: string): TypeEntry | undefined {
    return this.types.get(`${kind}:${textKey(name)}`);
  }

  /** The consent type called `name`, now or before a rename. */
  consentType(name: string): ConsentTypeDetails | undefined {
    return this.consentTypes.get(textKey(name));
  }

  /** The current name of the consent type called `name` now or before a rename. */
  consentTypeName(name: string): string | undefined {
    return this.consentTypes.get(textKey(name))?.TypeName;
  }

  /** Every name (current and former) of the consent type called `name`; [name] when none is. */
  consentTypeNames(name: string): string[] {
    const type = this.consentTypes.get(textKey(name));
    return type ? [type.TypeName, ...type.FormerNames] : [name];
  }

  /**
   * Names of the consent types (active or not) whose attributes include every given
   * Key/Value pair, former names included (stored consents may carry one until their
   * profile's next write); keys and values compare trimmed, spaces folded, case-insensitively.
   */
  consentTypesWithAttributes(pairs: { Key: string; Value: string }[]): string[] {
    const pairKey = (key: string, value: string | undefined) =>
      `${textKey(key)}\u0000${textKey(value ?? '')}`;
    const wanted = pairs.map((pair) => pairKey(pair.Key, pair.Value));
    return [...this.consentTypes.values()]
      .filter((type) => {
        const held = new Set(type.Attributes.map((a) => pairKey(a.Key, a.Value)));
        return wanted.every((pair) => held.has(pair));
      })
      .flatMap((type) => [type.TypeName, ...type.FormerNames]);
  }

  customField(name: string): ResolvedCustomField['definition'] | undefined {
    return this.customFields.get(textKey(name))?.definition;
  }

  checkCustomFieldValue(
    name: string,
    newValue: string | null,
    currentValue: string | null,
  ): string | null {
    const field = this.customFields.get(textKey(name));
    if (!field) return `Custom field ${JSON.stringify(name)} does not exist`;
    return checkCustomFieldValue(field.definition, field.picklistValues, newValue, currentValue);
  }

  requiredCustomFields(): string[] {
    return [...this.customFields.values()]
      .filter((field) => field.definition.IsActive && field.definition.IsRequired)
      .map((field) => field.definition.Name);
  }
}

/** What the vocabulary knows of a program (ProgramType: canonical, e.g. "Do Not Contact (DNC)"). */
export interface VocabularyProgram {
  IsActive: boolean;
  ProgramType: string;
}

/**
 * What a profile write needs of a filter. The contract is the profiles module's
 * (`PreferenceFilter` in its preference rules): it is declared there once, and this
 * snapshot meets it structurally (the compiler checks it where profiles take the vocabulary).
 */
type VocabularyFilter = ReturnType<typeof toVocabularyFilter>;

/** `currentName` gives a required consent type's current name (filters keep the name they were configured with). */
function toVocabularyFilter(
  program: StoredProgram,
  filter: StoredProgram['Filters'][number],
  currentName: (consentType: string) => string,
) {
  return {
    ProgramId: program.programId,
    FilterId: filter.ID,
    ChannelId: filter.ChannelID,
    IsActive: filter.IsActive !== false,
    FrequencyIds: [
      ...new Set(filter.FrequencyLocales.flatMap((locale) => locale.Frequencies.map((f) => f.ID))),
    ],
    OptInCustomerExpirationDays: filter.OptInCustomerExpirationDays,
    OptOutCustomerExpirationDays: filter.OptOutCustomerExpirationDays,
    OptInNonCustomerExpirationDays: filter.OptInNonCustomerExpirationDays,
    OptOutNonCustomerExpirationDays: filter.OptOutNonCustomerExpirationDays,
    RequiredConsentTypes: filter.RequiredPreferenceConsents.map((consent) =>
      currentName(consent.TypeName),
    ),
    RequiredAttributes: filter.PreferenceAttributes.filter((a) => a.IsRequired === true).map(
      (a) => a.ID,
    ),
    AttributeIds: filter.PreferenceAttributes.map((a) => a.ID),
    DefaultPreferenceValue: filter.DefaultPreferenceValue,
    // Double opt-in: set on the filter, or on its program for every Email filter of it.
    RequiresConfirmation:
      filter.ChannelID === 'Email' &&
      (filter.RequiresConfirmation === true || program.RequiresConfirmation === true),
  };
}
