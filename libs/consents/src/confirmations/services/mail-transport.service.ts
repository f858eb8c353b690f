import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { createTransport, type Transporter } from 'nodemailer';
import { ConfirmationMailSettings } from '../confirmation-settings';

/** One message as the SMTP server is given it. */
export interface OutgoingMail {
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  messageId: string;
}

/** The SMTP server of SMTP_URL, through nodemailer (one pooled transport per process). */
@Injectable()
export class MailTransport implements OnApplicationShutdown {
  private transport?: Transporter;

  constructor(
    @Inject(ConfirmationMailSettings) private readonly settings: ConfirmationMailSettings,
  ) {}

  /** Resolves once the server accepted the message; rejects with the server's refusal. */
  async send(mail: OutgoingMail): Promise<void> {
    if (!this.settings.smtpUrl) throw new Error('SMTP_URL is not set');
    this.transport ??= createTransport(this.settings.smtpUrl);
    await this.transport.sendMail(mail);
  }

  onApplicationShutdown(): void {
    this.transport?.close();
  }
}
