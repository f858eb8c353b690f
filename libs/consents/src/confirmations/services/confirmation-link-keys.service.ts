import { Inject, Injectable } from '@nestjs/common';
import { createHash, randomBytes } from 'node:crypto';
import { ConfirmationMailSettings } from '../confirmation-settings';
import { ConfirmationLinkKeyRepository } from '../repositories/confirmation-link-key.repository';

/**
 * The key confirmation links are signed with: CONFIRMATION_SECRET's SHA-256, else a key
 * generated once and kept in the engine (confirmation_link_keys). Read once per process.
 */
@Injectable()
export class ConfirmationLinkKeys {
  private key?: Promise<Buffer>;

  constructor(
    @Inject(ConfirmationMailSettings) private readonly settings: ConfirmationMailSettings,
    private readonly keys: ConfirmationLinkKeyRepository,
  ) {}

  get(): Promise<Buffer> {
    this.key ??= this.load().catch((error: unknown) => {
      this.key = undefined;
      throw error;
    });
    return this.key;
  }

  private async load(): Promise<Buffer> {
    if (this.settings.secret) return createHash('sha256').update(this.settings.secret).digest();
    const stored =
      (await this.keys.findGenerated()) ??
      (await this.keys.insertGeneratedIfAbsent(randomBytes(32).toString('base64'), new Date()));
    return Buffer.from(stored, 'base64');
  }
}
