import type { ChainReport } from '@app/profiles';

/** The chain check of a profile merged into another (VerifyConsentChainHandler). */
export interface AbsorbedChainReport {
  profileId: number;
  /** The survivor whose merge entry names it. */
  absorbedBy: number;
  /** Its chain head as that merge entry hashed it (null: it had none). */
  absorbedHead: string | null;
  report: ChainReport;
}
