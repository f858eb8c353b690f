import { Query } from '@nestjs/cqrs';
import type { ClientQuotasDto } from '../../dto/client-quotas.dto';

/** The operator's view of a client's quotas: each one's value, whose it is, its use now. */
export class GetClientQuotasQuery extends Query<ClientQuotasDto> {
  constructor(readonly clientId: string) {
    super();
  }
}
