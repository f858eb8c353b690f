import {
  readSettings,
  type SettingFields,
  settingFields,
  type SettingSpec,
  type SettingsDeclaration,
  type SettingValues,
} from './setting-spec';

/**
 * Typed values from the process environment, refused with a message naming the variable
 * and the value. The mechanism every lib's settings class is built with: shared owns the
 * process settings (Settings), each lib declares its own (ProfileSettings, AuthSettings...).
 */
export class EnvReader {
  constructor(private readonly env: NodeJS.ProcessEnv) {}

  /**
   * The values of a lib's declared variables (setting-spec.ts), or one error naming every
   * bad variable of the declaration and its value. How every settings class reads.
   */
  read<T extends readonly SettingSpec[]>(declaration: SettingsDeclaration<T>): SettingValues<T> {
    return readSettings(declaration, this.env);
  }

  /**
   * The values of a declaration's specs that name a `field`, by that field: what its
   * settings class assigns itself in one statement (it `implements DeclaredFields`).
   */
  fields<T extends readonly SettingSpec[]>(declaration: SettingsDeclaration<T>): SettingFields<T> {
    return settingFields(declaration, this.read(declaration));
  }

  text(name: string, fallback: string): string {
    return this.env[name] || fallback;
  }

  optional(name: string): string | undefined {
    return this.env[name] || undefined;
  }

  required(name: string): string {
    const value = this.env[name];
    if (!value) throw new Error(`Environment variable ${name} is required`);
    return value;
  }

  /** A non-negative integer; `min` raises what is read to at least that. */
  int(name: string, fallback: number, min = 0): number {
    const raw = this.env[name];
    if (raw === undefined || raw === '') return Math.max(min, fallback);
    const value = Number(raw);
    if (!Number.isInteger(value) || value < 0) {
      throw new Error(`Environment variable ${name} must be a non-negative integer, got "${raw}"`);
    }
    return Math.max(min, value);
  }

  /** A comma-separated list, entries trimmed, empty ones dropped ([] when unset). */
  list(name: string): string[] {
    return (this.env[name] ?? '')
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean);
  }

  bool(name: string, fallback: boolean): boolean {
    const raw = this.env[name];
    if (raw === undefined || raw === '') return fallback;
    if (raw === 'true' || raw === '1') return true;
    if (raw === 'false' || raw === '0') return false;
    throw new Error(`Environment variable ${name} must be true or false, got "${raw}"`);
  }
}
