import nodemailer, { type Transporter } from 'nodemailer';
import type { Logger } from 'pino';
import type { Mailer, OutgoingEmail, SentEmail } from './mailer';

/** Real email through SMTP_URL (nodemailer). Nothing is kept, so there is no dev mailbox. */
export class SmtpMailer implements Mailer {
  readonly devMode = false;
  private readonly transport: Transporter;

  constructor(
    smtpUrl: string,
    private readonly from: string,
    private readonly logger: Logger,
  ) {
    this.transport = nodemailer.createTransport(smtpUrl);
  }

  async send(email: OutgoingEmail): Promise<void> {
    const info = await this.transport.sendMail({
      from: this.from,
      to: email.to,
      subject: email.subject,
      text: email.text,
      html: email.html,
      attachments: email.attachments?.map((a) => ({
        filename: a.filename,
        contentType: a.contentType,
        content: a.content,
      })),
    });
    // The message id and recipient only: the body carries one-time links.
    this.logger.info({ messageId: info.messageId }, 'email sent');
  }

  mailbox(): SentEmail[] {
    return [];
  }

  close(): void {
    this.transport.close();
  }
}
