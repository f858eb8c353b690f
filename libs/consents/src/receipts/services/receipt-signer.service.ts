import { Injectable } from '@nestjs/common';
import { generateKeyPairSync } from 'node:crypto';
import { ConsentSettings } from '../../consent-settings';
import { parseSigningKey, type ReceiptPublicJwk, type ReceiptSigningKey } from '../domain/receipt';
import { ReceiptKeyRepository } from '../repositories/receipt-key.repository';

/**
 * The service's receipt signing key: RECEIPT_SIGNING_KEY when set (checked at start), else
 * the key generated once and kept in the engine (the first process to insert it wins, the
 * others read it), loaded once per process.
 */
@Injectable()
export class ReceiptSigner {
  private readonly configured: ReceiptSigningKey | undefined;
  private active: Promise<ReceiptSigningKey> | undefined;

  constructor(
    settings: ConsentSettings,
    private readonly keys: ReceiptKeyRepository,
  ) {
    if (settings.receiptSigningKey) {
      try {
        this.configured = parseSigningKey(settings.receiptSigningKey);
      } catch (error) {
        throw new Error(
          `RECEIPT_SIGNING_KEY: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    }
  }

  /** The key receipts are signed with now. */
  key(): Promise<ReceiptSigningKey> {
    if (this.configured) return Promise.resolve(this.configured);
    this.active ??= this.loadGenerated().catch((error: unknown) => {
      this.active = undefined; // the next request tries again
      throw error;
    });
    return this.active;
  }

  /**
   * The public keys a verifier may meet: the active one first, then the generated key when
   * a configured one replaced it (receipts it signed still verify).
   */
  async publicKeys(): Promise<ReceiptPublicJwk[]> {
    const active = await this.key();
    if (!this.configured) return [active.jwk];
    const stored = await this.keys.findGenerated();
    const generated = stored ? parseSigningKey(stored).jwk : undefined;
    return generated && generated.kid !== active.jwk.kid ? [active.jwk, generated] : [active.jwk];
  }

  private async loadGenerated(): Promise<ReceiptSigningKey> {
    const stored = await this.keys.findGenerated();
    if (stored) return parseSigningKey(stored);
    const { privateKey } = generateKeyPairSync('ed25519');
    const pem = privateKey.export({ format: 'pem', type: 'pkcs8' }) as string;
    return parseSigningKey(await this.keys.insertGeneratedIfAbsent(pem, new Date()));
  }
}
