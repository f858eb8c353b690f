import {
  type DeclaredFields,
  defineSettings,
  type EnvReader,
  SCHEDULED_JOB_BATCH_SIZE,
} from '@app/shared';

/** The consents module's variables (the settings schema: README, configuration table). */
export const CONSENT_SETTINGS = defineSettings('consents', [
  SCHEDULED_JOB_BATCH_SIZE,
  {
    name: 'RECEIPT_SIGNING_KEY',
    field: 'receiptSigningKey',
    type: 'text',
    trim: true,
    secret: true,
    meaning: 'the Ed25519 private key consent receipts are signed with (PKCS#8, PEM or base64)',
  },
] as const);

/** The consents module's settings (README, configuration table). */
export class ConsentSettings implements DeclaredFields<typeof CONSENT_SETTINGS, ConsentSettings> {
  /** Profiles the version and do-not-contact jobs read per page (their cursor is saved per page). */
  declare readonly scheduledJobBatchSize: number;
  /**
   * The consent receipts' Ed25519 signing key (RECEIPT_SIGNING_KEY): PKCS#8, PEM or base64
   * of its DER; checked when the api starts. Unset: a key generated once and kept in the
   * engine (receipt_signing_keys) signs (docs/receipts.md, "The key").
   */
  declare readonly receiptSigningKey: string | undefined;

  constructor(env: EnvReader) {
    Object.assign(this, env.fields(CONSENT_SETTINGS));
  }
}
