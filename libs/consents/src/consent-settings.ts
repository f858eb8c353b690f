import type { EnvReader } from '@app/shared';

/** The consents module's settings (README, configuration table). */
export class ConsentSettings {
  /** Profiles the version and do-not-contact jobs read per page (their cursor is saved per page). */
  readonly scheduledJobBatchSize: number;
  /**
   * The consent receipts' Ed25519 signing key (RECEIPT_SIGNING_KEY): PKCS#8, PEM or base64
   * of its DER; checked when the api starts. Unset: a key generated once and kept in the
   * engine (receipt_signing_keys) signs (docs/receipts.md, "The key").
   */
  readonly receiptSigningKey: string | undefined;

  constructor(env: EnvReader) {
    this.scheduledJobBatchSize = env.int('SCHEDULED_JOB_BATCH_SIZE', 200, 1);
    this.receiptSigningKey = env.optional('RECEIPT_SIGNING_KEY')?.trim() || undefined;
  }
}
