import { Injectable } from '@nestjs/common';
import { ConfigurationReader } from '@app/config';
import type { ReportNames } from '../domain/report-view';

/** The names a report shows, and the canonical spelling of a channel filter. */
export interface ClientReportNames extends ReportNames {
  channel(value: string): string | undefined;
}

/**
 * Names of a client's configuration for its reports: counts are kept under stable keys
 * (a type's text key, ids), named here by the configuration as it is now (so a renamed
 * consent type shows its current name). Read from the cached configuration snapshots.
 */
@Injectable()
export class ReportNamesReader {
  constructor(private readonly configuration: ConfigurationReader) {}

  async of(clientId: string): Promise<ClientReportNames> {
    const [vocabulary, presentation] = await Promise.all([
      this.configuration.vocabulary(clientId),
      this.configuration.presentation(clientId),
    ]);
    const programs = new Map<string, string>();
    const filters = new Map<string, string>();
    for (const program of presentation.programs) {
      programs.set(String(program.Id), program.Name);
      for (const filter of program.Filters) filters.set(String(filter.Id), filter.Name);
    }
    return {
      customerType: (key) => vocabulary.type('CustomerTypes', key)?.TypeName ?? key,
      consentType: (key) => vocabulary.consentTypeName(key) ?? key,
      program: (id) => programs.get(String(Number(id))) ?? undefined,
      filter: (id) => filters.get(String(Number(id))) ?? undefined,
      channel: (value) => vocabulary.channel(value),
    };
  }
}
