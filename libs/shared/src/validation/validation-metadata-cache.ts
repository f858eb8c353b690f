import { getMetadataStorage } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';

type Storage = ReturnType<typeof getMetadataStorage>;
type TargetLookup = Storage['getTargetValidationMetadatas'];
type Grouped = Record<string, ValidationMetadata[]>;

const INSTALLED = Symbol.for('pcp.validation-metadata-cache');

/** Moves each time a rule is registered after the cache was installed. */
let generation = 0;

/** The rules' generation: what is derived from them stays valid while it does not move. */
export function metadataGeneration(): number {
  return generation;
}

/**
 * Remembers class-validator's metadata lookups, which it otherwise redoes for every object it
 * validates: `getTargetValidationMetadatas` filters the class's rules and walks every
 * registered class for its ancestors (hundreds of DTO classes in this app), and
 * `groupByPropertyName` regroups the result. Both depend only on the class, the schema name
 * and the group options, and on the registered rules: a rule registered later (a class
 * defined after the first validation) empties the cache. The rules, the order they run in
 * and the messages are class-validator's own; only the repeated lookups go. Installed once
 * per process on class-validator's global storage (the ValidationPipe's and `validateSync`'s);
 * the cached lists are frozen (class-validator only reads them).
 */
export function cacheValidationMetadata(): void {
  const storage = getMetadataStorage() as Storage & { [INSTALLED]?: true };
  if (storage[INSTALLED]) return;
  storage[INSTALLED] = true;

  let targets = new WeakMap<object, Map<string, ValidationMetadata[]>>();
  let groupings = new WeakMap<ValidationMetadata[], Grouped>();
  const forget = (): void => {
    generation++;
    targets = new WeakMap();
    groupings = new WeakMap();
  };

  const lookup: TargetLookup = storage.getTargetValidationMetadatas.bind(storage);
  storage.getTargetValidationMetadatas = (target, schema, always, strictGroups, groups) => {
    const key = `${schema ?? '\u0003'}\u0000${always}\u0000${strictGroups}\u0000${groups?.join('\u0001') ?? '\u0002'}`;
    let byOptions = targets.get(target);
    if (!byOptions) targets.set(target, (byOptions = new Map()));
    let found = byOptions.get(key);
    if (!found) {
      found = Object.freeze(
        lookup(target, schema, always, strictGroups, groups),
      ) as ValidationMetadata[];
      byOptions.set(key, found);
    }
    return found;
  };

  const group = storage.groupByPropertyName.bind(storage);
  storage.groupByPropertyName = (metadata) => {
    let grouped = groupings.get(metadata);
    if (!grouped) {
      grouped = group(metadata);
      for (const list of Object.values(grouped)) Object.freeze(list);
      groupings.set(metadata, Object.freeze(grouped));
    }
    return grouped;
  };

  // Every way class-validator adds rules to its storage.
  const methods = storage as unknown as Record<string, ((...args: unknown[]) => void) | undefined>;
  for (const method of ['addValidationMetadata', 'addConstraintMetadata', 'addValidationSchema']) {
    const original = methods[method]?.bind(storage);
    if (!original) continue;
    methods[method] = (...args) => {
      forget();
      original(...args);
    };
  }
}
