import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';

export interface OutgoingEmail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The links the email carries (verify, reset, invite, entry…), for the dev mailbox. */
  links: string[];
  /** Text attachments (a calendar invite). */
  attachments?: EmailAttachment[];
}

export interface EmailAttachment {
  filename: string;
  /** With its parameters, e.g. `text/calendar; charset=utf-8; method=REQUEST`. */
  contentType: string;
  content: string;
}

export interface SentEmail extends OutgoingEmail {
  id: string;
  sentAt: Date;
}

export interface Mailer {
  /** true in email dev mode (SMTP_URL unset): the answers carry the URLs an email would (docs/authentication.md). */
  readonly devMode: boolean;
  send(email: OutgoingEmail): Promise<void>;
  /** Dev mode only: kept emails, newest first. */
  mailbox(to?: string): SentEmail[];
}

const mailboxLimit = 1000;

/** Email dev mode: every email is logged (without its links' secrets) and kept in memory. */
export class DevMailer implements Mailer {
  readonly devMode = true;
  private readonly kept: SentEmail[] = [];

  constructor(private readonly logger: Logger) {}

  async send(email: OutgoingEmail): Promise<void> {
    const sent = { ...email, to: email.to.toLowerCase(), id: randomUUID(), sentAt: new Date() };
    this.kept.unshift(sent);
    if (this.kept.length > mailboxLimit) this.kept.length = mailboxLimit;
    // Not the recipient: logs carry no user data. The dev mailbox (GET /v1/dev/mailbox) shows the email.
    this.logger.info({ emailId: sent.id }, 'email kept in the dev mailbox');
  }

  mailbox(to?: string): SentEmail[] {
    const want = to?.toLowerCase();
    return want ? this.kept.filter((e) => e.to === want) : [...this.kept];
  }
}
