import type { Logger } from 'pino';
import type { Config } from '../config';
import { DevMailer, type Mailer } from './mailer';
import { SmtpMailer } from './smtp-mailer';

/** SMTP when SMTP_URL is set; otherwise email dev mode. */
export function createMailer(config: Config, logger: Logger): Mailer {
  return config.smtpUrl ? new SmtpMailer(config.smtpUrl, config.emailFrom, logger) : new DevMailer(logger);
}

/**
 * Sends without failing the caller: the change that triggered the email has already committed, and
 * a mail outage must not turn a completed signup into a 500.
 */
export async function sendQuietly(mailer: Mailer, logger: Logger, email: Parameters<Mailer['send']>[0]): Promise<void> {
  try {
    await mailer.send(email);
  } catch (err) {
    // Neither the recipient nor the subject (it may carry an event title or a name): the error says why.
    logger.error({ err }, 'email could not be sent');
  }
}
