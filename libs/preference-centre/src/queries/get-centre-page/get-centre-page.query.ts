import { Query } from '@nestjs/cqrs';
import type { CentrePage } from '../../domain/centre-page';

/** The preference centre of a profile; null when the client has no such profile (now). */
export class GetCentrePageQuery extends Query<CentrePage | null> {
  constructor(
    readonly clientId: string,
    readonly profileId: number,
  ) {
    super();
  }
}
