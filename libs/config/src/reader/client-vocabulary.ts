import { nameKeyOf } from '../common/entry-request';
import type { ConsentTypeDetails } from '../consent-types/consent-type.mapper';
import type { ResolvedCustomField } from '../custom-fields/custom-field-catalog.service';
import { checkCustomFieldValue } from '../custom-fields/domain/custom-field-value';
import type { TypeEntry } from '../types/services/type-catalog.service';
import type { TypeKind } from '../types/type-kind';

/**
 * One client's configuration as a profile write needs it, loaded at once and looked up
 * by name (trimmed, spaces folded, case-insensitive). Immutable: a change of the
 * configuration makes the reader build a new one.
 */
export class ClientVocabulary {
  private readonly types: Map<string, TypeEntry>;
  private readonly consentTypes: Map<string, ConsentTypeDetails>;
  private readonly customFields: Map<string, ResolvedCustomField>;

  constructor(
    readonly stamp: string,
    types: Record<TypeKind, TypeEntry[]>,
    consentTypes: ConsentTypeDetails[],
    customFields: ResolvedCustomField[],
  ) {
    this.types = new Map(
      Object.entries(types).flatMap(([kind, entries]) =>
        entries.map((entry) => [`${kind}:${nameKeyOf(entry.TypeName)}`, entry] as const),
      ),
    );
    this.consentTypes = new Map(consentTypes.map((type) => [nameKeyOf(type.TypeName), type]));
    this.customFields = new Map(
      customFields.map((field) => [nameKeyOf(field.definition.Name), field]),
    );
  }

  type(kind: TypeKind, name: string): TypeEntry | undefined {
    return this.types.get(`${kind}:${nameKeyOf(name)}`);
  }

  consentType(name: string): ConsentTypeDetails | undefined {
    return this.consentTypes.get(nameKeyOf(name));
  }

  /**
   * Names of the consent types (active or not) whose attributes include every given
   * Key/Value pair; keys and values compare trimmed, spaces folded, case-insensitively.
   */
  consentTypesWithAttributes(pairs: { Key: string; Value: string }[]): string[] {
    const pairKey = (key: string, value: string | undefined) =>
      `${nameKeyOf(key)}\u0000${nameKeyOf(value ?? '')}`;
    const wanted = pairs.map((pair) => pairKey(pair.Key, pair.Value));
    return [...this.consentTypes.values()]
      .filter((type) => {
        const held = new Set(type.Attributes.map((a) => pairKey(a.Key, a.Value)));
        return wanted.every((pair) => held.has(pair));
      })
      .map((type) => type.TypeName);
  }

  customField(name: string): ResolvedCustomField['definition'] | undefined {
    return this.customFields.get(nameKeyOf(name))?.definition;
  }

  checkCustomFieldValue(
    name: string,
    newValue: string | null,
    currentValue: string | null,
  ): string | null {
    const field = this.customFields.get(nameKeyOf(name));
    if (!field) return `Custom field ${JSON.stringify(name)} does not exist`;
    return checkCustomFieldValue(field.definition, field.picklistValues, newValue, currentValue);
  }

  requiredCustomFields(): string[] {
    return [...this.customFields.values()]
      .filter((field) => field.definition.IsActive && field.definition.IsRequired)
      .map((field) => field.definition.Name);
  }
}
