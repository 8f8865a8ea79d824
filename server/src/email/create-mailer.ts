import type { Logger } from 'pino';
import type { Config } from '../config';
import { DevMailer, type Mailer } from './mailer';
import { SmtpMailer } from './smtp-mailer';

/** SMTP when SMTP_URL is set; otherwise email dev mode. */
export function createMailer(config: Config, logger: Logger): Mailer {
  return config.smtpUrl ? new SmtpMailer(config.smtpUrl, config.emailFrom, logger) : new DevMailer(logger);
}
