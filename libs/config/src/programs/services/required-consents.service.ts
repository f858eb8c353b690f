import { Injectable, Logger } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { InvalidInputError, NotFoundError } from '@app/shared';
import { ConfigBookkeeping } from '../../common/config-bookkeeping.repository';
import { FindConsentTypeQuery } from '../../common/cross-area';
import type { StoredProgram, StoredRequiredConsent } from '../domain/program.schema';
import type { RequiredPreferenceConsentDto } from '../dto/program.dto';
import { ProgramRepository } from '../repositories/program.repository';
import { saveWithRetry } from '../../common/save-with-retry';

export interface RequiredConsentList {
  /** Names the list in messages (`Filters[0].RequiredPreferenceConsents`). */
  path: string;
  consents: RequiredPreferenceConsentDto[] | undefined;
  /** The filter's stored list: names it already requires are kept without a lookup. */
  current?: StoredRequiredConsent[];
}

/**
 * The RequiredPreferenceConsents rules: a TypeName must name an active consent type
 * (asked of consent-types); a deactivated type is removed from every filter of the client.
 */
@Injectable()
export class RequiredConsents {
  private readonly logger = new Logger(RequiredConsents.name);

  constructor(
    private readonly queries: QueryBus,
    private readonly programs: ProgramRepository,
    private readonly bookkeeping: ConfigBookkeeping,
  ) {}

  /**
   * The stored lists of the given bodies, TypeNames spelled as consent-types spells them.
   * A name the filter does not already require must be an active consent type: 400 names
   * every one that is not.
   */
  async resolve(
    clientId: string,
    lists: RequiredConsentList[],
  ): Promise<StoredRequiredConsent[][]> {
    const lookups = new Map<string, Promise<{ TypeName: string; IsActive: boolean } | null>>();
    const problems: string[] = [];
    const resolved: StoredRequiredConsent[][] = [];
    for (const list of lists) {
      const result: StoredRequiredConsent[] = [];
      for (const [index, consent] of (list.consents ?? []).entries()) {
        const name = consent.TypeName.trim();
        const kept = list.current?.find(
          (stored) => stored.TypeName.toLowerCase() === name.toLowerCase(),
        );
        if (kept) {
          result.push({ TypeName: kept.TypeName, DisplayOrder: consent.DisplayOrder ?? undefined });
          continue;
        }
        const key = name.toLowerCase();
        if (!lookups.has(key)) {
          lookups.set(key, this.queries.execute(new FindConsentTypeQuery(clientId, name)));
        }
        const found = await lookups.get(key);
        const where = `${list.path}[${index}].TypeName (value ${JSON.stringify(consent.TypeName)})`;
        if (!found) {
          problems.push(`Invalid ${where}: no consent type has this name`);
        } else if (!found.IsActive) {
          problems.push(`Invalid ${where}: consent type "${found.TypeName}" is not active`);
        } else {
          result.push({
            TypeName: found.TypeName,
            DisplayOrder: consent.DisplayOrder ?? undefined,
          });
        }
      }
      resolved.push(result);
    }
    if (problems.length) throw new InvalidInputError(problems.join('; '));
    return resolved;
  }

  /** Lower-case TypeNames required in `after` that `before` did not require. */
  static added(before: StoredProgram | null, after: StoredProgram): string[] {
    const names = (program: StoredProgram | null) =>
      new Set(
        (program?.Filters ?? []).flatMap((filter) =>
          filter.RequiredPreferenceConsents.map((consent) => consent.TypeName.toLowerCase()),
        ),
      );
    const old = names(before);
    return [...names(after)].filter((name) => !old.has(name));
  }

  /**
   * After saving newly required types: one deactivated between the check and the save
   * missed its removal (the event ran before the save), so it is removed now.
   */
  async recheck(clientId: string, typeNames: string[]): Promise<void> {
    for (const typeName of new Set(typeNames)) {
      const found = await this.queries.execute(new FindConsentTypeQuery(clientId, typeName));
      if (!found?.IsActive) await this.removeEverywhere(clientId, typeName);
    }
  }

  /** Removes the consent type from every filter of the client (case-insensitive). */
  async removeEverywhere(clientId: string, typeName: string): Promise<void> {
    const key = typeName.toLowerCase();
    const changed = await this.changeFiltersRequiring(clientId, key, (consents) =>
      consents.filter((consent) => consent.TypeName.toLowerCase() !== key),
    );
    if (changed) {
      this.logger.log(
        `Consent type "${typeName}" no longer required by ${changed} program(s) of ${clientId}`,
      );
    }
  }

  /** Names the consent type `typeName` in every filter that requires it as `formerName`. */
  async renameEverywhere(clientId: string, formerName: string, typeName: string): Promise<void> {
    const key = formerName.toLowerCase();
    await this.changeFiltersRequiring(clientId, key, (consents) =>
      consents.map((consent) =>
        consent.TypeName.toLowerCase() === key ? { ...consent, TypeName: typeName } : consent,
      ),
    );
  }

  /** Saves `change` of the required consents of every program requiring `key`; how many. */
  private async changeFiltersRequiring(
    clientId: string,
    key: string,
    change: (consents: StoredRequiredConsent[]) => StoredRequiredConsent[],
  ): Promise<number> {
    const programs = await this.programs.findRequiring(clientId, key);
    for (const program of programs) {
      await saveWithRetry({
        ...this.programs.revisionsOf(clientId, program.programId),
        change: async (current) => ({
          ...current,
          Filters: current.Filters.map((filter) => ({
            ...filter,
            RequiredPreferenceConsents: change(filter.RequiredPreferenceConsents),
          })),
        }),
      }).catch((error: unknown) => {
        // A program removed meanwhile has nothing left to change.
        if (!(error instanceof NotFoundError)) throw error;
      });
    }
    if (programs.length) await this.bookkeeping.touch(clientId);
    return programs.length;
  }
}
