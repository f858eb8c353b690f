import { Command } from '@nestjs/cqrs';

/**
 * Derives again, from the engine, what Redis holds of the profiles this worker saved in the
 * last REDIS_REPAIR_WINDOW_MS (their search keys, read models and due expiries): run when a
 * Redis node may have lost its last moments (a failover, a restart from its files). Answers
 * how many profiles it repaired.
 */
export class RepairRecentSavesCommand extends Command<number> {
  constructor(readonly why: string) {
    super();
  }
}
