import { Injectable } from '@nestjs/common';
import { ConfigurationReader } from '@app/config';
import { Clock } from '@app/shared';
import { checkAgainstConfiguration } from '../domain/profile-configuration.rules';
import { checkProfileInput } from '../domain/profile-input.rules';
import { ProfileRules } from '../domain/profile-rules';
import { writeScopeViolations } from '../domain/profile-scope.rules';
import type { ProfileData } from '../domain/profile-data.schema';
import type { CallerScope } from '../domain/profile-view';
import { validateProfileBody } from '../wire/validate-profile-body';
import type { ProfileDto } from '../wire/profile.dto';
import { profileBodyOf } from '../wire/profile-body.mapper';
import { PROFILE_WIRE_FORMAT } from '../wire/profile-wire-format';

/** What the acceptance checks say of one profile body: empty lists when it is accepted. */
export interface ProfileBodyCheck {
  /** Problems a write would be refused for with 400 (DTO rules, input rules, configuration). */
  invalid: string[];
  /** What the writer's user group may not write (a write would be refused with 403). */
  forbidden: string[];
}

/** Checks bodies of one client and writer against one snapshot of the configuration. */
export type ProfileBodyChecker = (body: unknown) => ProfileBodyCheck;

/**
 * The acceptance-time checks of a profile write, without queuing anything: for modules that
 * take profile bodies to be written later (the bulk import's staging). The same functions
 * the create and update handlers run: the ProfileDto rules (unknown fields refused), the
 * input rules, the client's configuration and the writer's user-group scope. What depends
 * on the stored profile (the rules of a merge against it, alternate ids held by others) is
 * checked when the write is applied.
 */
@Injectable()
export class ProfileWriteChecks {
  constructor(
    private readonly configuration: ConfigurationReader,
    private readonly rules: ProfileRules,
    private readonly clock: Clock,
  ) {}

  /** True when the client's configuration has an active alternate id type of this name. */
  async isActiveAlternateIdType(clientId: string, name: string): Promise<boolean> {
    const vocabulary = await this.configuration.vocabulary(clientId);
    return vocabulary.type('AlternateIdTypes', name)?.IsActive === true;
  }

  /**
   * A checker of `kind` bodies for the client's current configuration and this writer;
   * with `stored` (a merge of a known profile, e.g. the preference centre's), the checks
   * that depend on the stored values (consent transitions) run against it, as a POST by
   * id's acceptance does. `importRecords`: the bodies are a bulk import's records, which may
   * state what a Data API write cannot (a consent's Confirmation), checked here as of now.
   */
  async checkerFor(
    clientId: string,
    kind: 'create' | 'merge' | 'overwrite',
    scope: CallerScope | undefined,
    stored?: ProfileData,
    importRecords = false,
  ): Promise<ProfileBodyChecker> {
    const vocabulary = await this.configuration.vocabulary(clientId);
    const now = this.clock.now().getTime();
    return (body) => {
      if (typeof body !== 'object' || body === null || Array.isArray(body)) {
        return {
          invalid: [`The record is not a JSON object (value ${JSON.stringify(body)})`],
          forbidden: [],
        };
      }
      const invalid = validateProfileBody(body);
      // Checked against ProfileDto's rules just above: the domain reads it as a body.
      const input = profileBodyOf(body as ProfileDto);
      if (!invalid.length) invalid.push(...checkProfileInput(input, kind));
      if (!invalid.length) {
        invalid.push(...checkAgainstConfiguration(input, vocabulary, this.rules, kind, stored));
      }
      if (!invalid.length && importRecords)
        invalid.push(...this.rules.importRecordProblems(input, now));
      const forbidden = invalid.length
        ? []
        : writeScopeViolations(input, scope, PROFILE_WIRE_FORMAT);
      return { invalid, forbidden };
    };
  }
}
