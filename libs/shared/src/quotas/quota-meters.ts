import { Injectable } from '@nestjs/common';
import { QUOTA_NAMES, type QuotaName } from './client-quotas';

/**
 * What the operator's view of a client's quotas asks the lib that enforces one: the
 * process-wide default, and how much of it the client uses now. `used` addresses the
 * client's own document by `_id` or its Redis keys, never a scan.
 */
export interface QuotaMeter {
  readonly name: QuotaName;
  /** The process-wide default (its environment variable, as this process read it). */
  readonly defaultLimit: number;
  used(clientId: string): Promise<number>;
}

/**
 * The meters of the quotas, one per quota: each lib that enforces a quota registers its
 * meter here when its module starts (libs do not know one another; the operator route
 * asks them all through this).
 */
@Injectable()
export class QuotaMeters {
  private readonly meters = new Map<QuotaName, QuotaMeter>();

  register(meter: QuotaMeter): void {
    if (this.meters.has(meter.name)) throw new Error(`Two meters of quota "${meter.name}"`);
    this.meters.set(meter.name, meter);
  }

  /** Every quota's meter, in QUOTA_NAMES order; throws when one has none (a wiring fault). */
  all(): QuotaMeter[] {
    return QUOTA_NAMES.map((name) => {
      const meter = this.meters.get(name);
      if (!meter) throw new Error(`No meter of quota "${name}" is registered`);
      return meter;
    });
  }
}
