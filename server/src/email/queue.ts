import type { Task } from 'graphile-worker';
import type { Logger } from 'pino';
import type { Queryable } from '../db/pool';
import { type SqlTx, sql } from '../db/sql';
import type { Mailer, OutgoingEmail, SentEmail } from './mailer';

/** The graphile-worker task that sends one queued email. */
export const emailTask = 'email_send';
/**
 * Attempts before an email is given up. A failed send is retried by graphile-worker after e^n seconds
 * (n = attempts so far, capped at 10: 3 s, 7 s, 20 s, … then every ~6 h), so 25 attempts span about 4 days.
 */
export const emailMaxAttempts = 25;

export interface EnqueueOptions {
  /** Send no earlier than this (a reminder); now if unset. */
  runAt?: Date;
  /**
   * Names the queued email so it can be replaced (enqueue again with the same key) or cancelled
   * (`cancel`) before it is sent, e.g. `reminder:<registrationId>`.
   */
  key?: string;
  /**
   * false queues nothing, yet runs the same statement: a caller that must not reveal which branch it
   * took (password reset for an unknown address) costs the same either way.
   */
  onlyIf?: boolean;
}

/** Email job keys live apart from the other jobs' keys (webhook deliveries use their ids). */
const jobKey = (key: string) => `email:${key}`;

/**
 * Every email leaves through here: written to the job queue in the transaction of the change that
 * causes it (so it is sent exactly when the change commits, and never for a change that rolled back),
 * then sent by whichever server process's worker takes the job, retried until the mail server takes
 * it. A mail outage never fails the request that caused the email.
 *
 * The queued email (its links included) stays in the job table only until it is sent; one that failed every
 * attempt stays a week (for its `last_error`), then the retention job purges it (db/retention.ts).
 */
export class EmailQueue {
  constructor(private readonly mailer: Mailer) {}

  /** true in email dev mode: answers may carry the links an email would (docs/authentication.md). */
  get devMode(): boolean {
    return this.mailer.devMode;
  }

  async enqueue(tx: SqlTx, email: OutgoingEmail, options: EnqueueOptions = {}): Promise<void> {
    await sql(
      tx,
      `select graphile_worker.add_job(?, ?::json, run_at := coalesce(?::timestamptz, now()),
         max_attempts := ?, job_key := ?) is not null as queued where ?::boolean`,
      [
        emailTask,
        JSON.stringify(email),
        options.runAt?.toISOString() ?? null,
        emailMaxAttempts,
        options.key ? jobKey(options.key) : null,
        options.onlyIf ?? true,
      ],
    );
  }

  /** Drops a queued email named by `key` that has not been sent yet (no-op when there is none). */
  async cancel(tx: SqlTx, key: string): Promise<void> {
    await sql(tx, 'select graphile_worker.remove_job(?) is not null as removed', [jobKey(key)]);
  }

  /**
   * Email dev mode: waits (up to `timeoutMs`) until every email that was due when called has been
   * handed to the mailer, so the dev mailbox shows what the calls before it queued.
   */
  async settled(db: Queryable, timeoutMs = 5000): Promise<void> {
    const since = (await db.query<{ since: string }>('select now()::text as since')).rows[0]!.since;
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const rows = await sql<{ waiting: boolean }>(
        db,
        `select exists(select 1 from graphile_worker.jobs
           where task_identifier = ? and run_at <= ?::timestamptz and attempts < max_attempts) as waiting`,
        [emailTask, since],
      );
      if (!rows[0]?.waiting) return;
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  /** Email dev mode only: the emails sent so far, newest first. */
  mailbox(to?: string): SentEmail[] {
    return this.mailer.mailbox(to);
  }

  /** The task the job worker runs: a throw makes graphile-worker retry the job later. */
  task(logger: Logger): Task {
    return async (payload, helpers) => {
      try {
        await this.mailer.send(payload as OutgoingEmail);
      } catch (err) {
        // Neither the recipient nor the subject (it may carry an event title or a name): the error says why.
        logger.warn(
          { err, jobId: helpers.job.id, attempt: helpers.job.attempts },
          'email could not be sent; it will be retried',
        );
        throw err;
      }
    };
  }
}
