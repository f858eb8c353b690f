/**
 * The settings schema: every environment variable a lib reads, declared as data (name, type,
 * default, bounds, allowed values, required, secret, meaning) in that lib's own settings
 * file with `defineSettings`. The lib's settings class reads its values through its
 * declaration (`EnvReader.read`), the apps check the whole environment against every
 * declaration of the process once at start (`checkSettings`, as @nestjs/config's `validate`:
 * settings-config.ts), and the README's configuration table is checked against the
 * declarations (readme-settings.spec.ts; `npm run settings:table` prints it from them).
 */

interface SpecBase {
  /** The environment variable. */
  readonly name: string;
  /**
   * The property of the lib's settings class that holds the value as read (`SettingFields`);
   * none where the class derives its property (from several variables, or parsed).
   */
  readonly field?: string;
  /** One line: what it does (the README's "Meaning" says it at length). */
  readonly meaning: string;
  /** Its value is never shown: an error names the variable and prints `***`. */
  readonly secret?: boolean;
  /**
   * What the README's "Default" column says when the value the process reads when it is
   * unset is not the whole story (`npm start` supplies one: "embedded engine").
   */
  readonly documentedDefault?: string;
}

/** A non-negative integer (decimal digits). */
export interface IntSpec extends SpecBase {
  readonly type: 'int';
  readonly default: number;
  /** A smaller value is raised to this (not refused: it is the least that works). */
  readonly atLeast?: number;
  /** A larger value is refused. */
  readonly max?: number;
}

/** `true`/`1` or `false`/`0`. */
export interface BoolSpec extends SpecBase {
  readonly type: 'bool';
  readonly default: boolean;
}

/** Text: required, or with a default, or optional (unset: undefined). */
export interface TextSpec extends SpecBase {
  readonly type: 'text';
  readonly default?: string;
  /** Unset or empty: refused. */
  readonly required?: boolean;
  /** The only values taken. */
  readonly values?: readonly string[];
  /** Leading and trailing white space is dropped (an all-blank value is unset). */
  readonly trim?: boolean;
  /** A further check of a set value: what is wrong with it, or undefined. */
  readonly problem?: (value: string) => string | undefined;
}

/** A comma-separated list of text entries, trimmed, empty ones dropped ([] when unset). */
export interface ListSpec extends SpecBase {
  readonly type: 'list';
}

/** A comma-separated list of non-negative integers (the default when unset or empty). */
export interface IntListSpec extends SpecBase {
  readonly type: 'intList';
  readonly default: readonly number[];
}

export type SettingSpec = IntSpec | BoolSpec | TextSpec | ListSpec | IntListSpec;

/** The value a declared variable is read as. */
export type SettingValue<S extends SettingSpec> = S extends IntSpec
  ? number
  : S extends BoolSpec
    ? boolean
    : S extends ListSpec
      ? string[]
      : S extends IntListSpec
        ? number[]
        : S extends { required: true } | { default: string }
          ? string
          : string | undefined;

/** Every variable of a declaration, by name, with the value it is read as. */
export type SettingValues<T extends readonly SettingSpec[]> = {
  [S in T[number] as S['name']]: SettingValue<S>;
};

/** The properties a declaration fills: each spec's `field`, with the value it is read as. */
export type SettingFields<T extends readonly SettingSpec[]> = {
  readonly [
    S in T[number] as S extends { readonly field: infer F extends string } ? F : never
  ]: SettingValue<S>;
};

/**
 * What a settings class implements to take its properties from its declaration in one
 * statement (`Object.assign(this, env.fields(DECLARATION))`): every `field` the declaration
 * names, each declared by the class with the very type its spec is read as (a narrower type
 * is required as `never` here, a wider one is not assignable: either does not compile).
 */
export type DeclaredFields<D extends { readonly specs: readonly SettingSpec[] }, C> = {
  readonly [K in keyof SettingFields<D['specs']>]: K extends keyof C
    ? SettingFields<D['specs']>[K] extends C[K]
      ? SettingFields<D['specs']>[K]
      : never
    : SettingFields<D['specs']>[K];
};

/** A lib's declared variables; `check` relates values to each other (returns problems). */
export interface SettingsDeclaration<T extends readonly SettingSpec[] = readonly SettingSpec[]> {
  /** Who declares it (a lib's name), for the generated table and errors. */
  readonly owner: string;
  readonly specs: T;
  readonly check?: (values: SettingValues<T>) => SettingProblem[];
}

/** One bad variable: its name, the value it has (as written) and what is wrong. */
export interface SettingProblem {
  readonly name: string;
  readonly value: string | undefined;
  readonly message: string;
}

export function defineSettings<const T extends readonly SettingSpec[]>(
  owner: string,
  specs: T,
  check?: (values: SettingValues<T>) => SettingProblem[],
): SettingsDeclaration<T> {
  return { owner, specs, check };
}

/**
 * What stops a process whose environment has bad values: one line per bad variable, naming
 * it and its value (a secret's as `***`).
 */
export class SettingsError extends Error {
  /** Every bad variable; a secret's value replaced by `***` (the error may be logged). */
  readonly problems: readonly SettingProblem[];

  constructor(problems: readonly SettingProblem[], secrets: ReadonlySet<string> = new Set()) {
    const masked = problems.map((problem) =>
      secrets.has(problem.name) && problem.value ? { ...problem, value: '***' } : problem,
    );
    super(
      `Invalid settings (${masked.length} bad environment variable${masked.length === 1 ? '' : 's'}):\n` +
        masked
          .map(({ name, value, message }) => {
            const shown = !value ? 'unset' : secrets.has(name) ? value : JSON.stringify(value);
            return `  ${name} (value ${shown}): ${message}`;
          })
          .join('\n'),
    );
    this.name = 'SettingsError';
    this.problems = masked;
  }
}

type Env = Readonly<Record<string, string | undefined>>;

/** Reads one declared variable: its value, or what is wrong with it. */
function readSpec(
  spec: SettingSpec,
  raw: string | undefined,
): { value: unknown; problem?: undefined } | { value?: undefined; problem: string } {
  switch (spec.type) {
    case 'int': {
      if (raw === undefined || raw === '')
        return { value: Math.max(spec.atLeast ?? 0, spec.default) };
      const read = Number(raw);
      if (!Number.isInteger(read) || read < 0) return { problem: 'must be a non-negative integer' };
      const value = Math.max(spec.atLeast ?? 0, read);
      if (spec.max !== undefined && value > spec.max)
        return { problem: `must be at most ${spec.max}` };
      return { value };
    }
    case 'bool':
      if (raw === undefined || raw === '') return { value: spec.default };
      if (raw === 'true' || raw === '1') return { value: true };
      if (raw === 'false' || raw === '0') return { value: false };
      return { problem: 'must be true or false (or 1 or 0)' };
    case 'list':
      return { value: splitList(raw) };
    case 'intList': {
      const entries = splitList(raw);
      if (entries.length === 0) return { value: [...spec.default] };
      if (entries.some((entry) => !Number.isInteger(Number(entry)) || Number(entry) < 0))
        return { problem: 'must be a comma-separated list of non-negative integers' };
      return { value: entries.map(Number) };
    }
    case 'text': {
      const value = (spec.trim ? raw?.trim() : raw) || undefined;
      if (value === undefined) {
        if (spec.required) return { problem: 'is required' };
        return { value: spec.default };
      }
      if (spec.values && !spec.values.includes(value))
        return { problem: `must be one of ${spec.values.join(', ')}` };
      const problem = spec.problem?.(value);
      return problem ? { problem } : { value };
    }
  }
}

function splitList(raw: string | undefined): string[] {
  return (raw ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
}

/** The variables of `declarations` that are secrets (their values are never shown). */
function secretsOf(declarations: readonly SettingsDeclaration[]): Set<string> {
  return new Set(
    declarations.flatMap((declaration) =>
      declaration.specs.filter((spec) => spec.secret).map((spec) => spec.name),
    ),
  );
}

/** Reads a declaration's values and lists what is wrong (each bad variable once). */
function readDeclaration<T extends readonly SettingSpec[]>(
  declaration: SettingsDeclaration<T>,
  env: Env,
): { values: SettingValues<T>; problems: SettingProblem[] } {
  const values: Record<string, unknown> = {};
  const problems: SettingProblem[] = [];
  for (const spec of declaration.specs) {
    const raw = env[spec.name];
    const read = readSpec(spec, raw);
    if (read.problem !== undefined)
      problems.push({ name: spec.name, value: raw, message: read.problem });
    else values[spec.name] = read.value;
  }
  // Relations between values only between values that are good on their own.
  if (problems.length === 0 && declaration.check)
    problems.push(...declaration.check(values as SettingValues<T>));
  return { values: values as SettingValues<T>, problems };
}

/** Of a declaration's values, those its specs name a `field` for, by that field. */
export function settingFields<T extends readonly SettingSpec[]>(
  declaration: SettingsDeclaration<T>,
  values: SettingValues<T>,
): SettingFields<T> {
  const byName: Readonly<Record<string, unknown>> = values;
  const fields: Record<string, unknown> = {};
  for (const spec of declaration.specs) if (spec.field) fields[spec.field] = byName[spec.name];
  return fields as SettingFields<T>;
}

/** A declaration's values, read from `env`; a SettingsError listing every bad one. */
export function readSettings<T extends readonly SettingSpec[]>(
  declaration: SettingsDeclaration<T>,
  env: Env,
): SettingValues<T> {
  const { values, problems } = readDeclaration(declaration, env);
  if (problems.length) throw new SettingsError(problems, secretsOf([declaration]));
  return values;
}

/**
 * Checks `env` against every declaration of a process at once: their values by owner
 * (`{ auth: { JWT_SECRET: ... } }`), or one SettingsError naming every bad variable and its
 * value (secrets masked). A variable declared by two libs (SCHEDULED_JOB_BATCH_SIZE) must
 * be declared alike (one spec both hold: common-specs.ts).
 */
export function checkSettings(
  declarations: readonly SettingsDeclaration[],
  env: Env,
): Record<string, Record<string, unknown>> {
  const byOwner: Record<string, Record<string, unknown>> = {};
  const problems = new Map<string, SettingProblem>();
  for (const declaration of declarations) {
    const read = readDeclaration(declaration, env);
    byOwner[declaration.owner] = { ...byOwner[declaration.owner], ...read.values };
    for (const problem of read.problems)
      if (!problems.has(problem.name)) problems.set(problem.name, problem);
  }
  if (problems.size) throw new SettingsError([...problems.values()], secretsOf(declarations));
  return byOwner;
}

/** Every variable of the declarations once (the first declaration of a name wins). */
export function declaredSpecs(declarations: readonly SettingsDeclaration[]): SettingSpec[] {
  const seen = new Map<string, SettingSpec>();
  for (const declaration of declarations)
    for (const spec of declaration.specs) if (!seen.has(spec.name)) seen.set(spec.name, spec);
  return [...seen.values()];
}

/** A declared default as the README's "Default" column writes it. */
export function documentedDefault(spec: SettingSpec): string {
  if (spec.documentedDefault !== undefined) return spec.documentedDefault;
  switch (spec.type) {
    case 'int':
    case 'bool':
      return `\`${String(spec.default)}\``;
    case 'intList':
      return `\`${spec.default.join(',')}\``;
    case 'list':
      return 'none';
    case 'text':
      return spec.default === undefined ? 'unset' : `\`${spec.default}\``;
  }
}
