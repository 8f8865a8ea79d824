import type { Task } from 'graphile-worker';
import type { Logger } from 'pino';
import { emailTask } from '../email/queue';
import type { Queryable } from './pool';

/** The graphile-worker task that purges every table below, and when it runs (minute 7 of every hour). */
export const retentionTask = 'retention_purge';
export const retentionCrontab = `7 * * * * ${retentionTask}`;

const hours = (n: number) => n * 3600;
const days = (n: number) => n * 24 * 3600;

/**
 * One table's window: a row is purged once `expired` (SQL over the row, `$1` the window in seconds)
 * holds. Add a table by adding a line here (and to docs/limits.md, "Data retention").
 */
export interface RetentionRule {
  /** The table, and the name RETENTION uses to replace the window (`domain_event=90d`). */
  table: string;
  /** The SQL relation the rows are in, when it is not `table` (a name that says what the rows are). */
  relation?: string;
  windowSeconds: number;
  expired: string;
}

const olderThan = (column: string) => `${column} < now() - make_interval(secs => $1)`;

export const retentionRules: RetentionRule[] = [
  // Replayed for 24 h (docs/events.md); kept a day longer so a slow retry near the end still replays.
  { table: 'idempotency_record', windowSeconds: hours(48), expired: olderThan('created_at') },
  // Delivered, failed or canceled deliveries (their attempts go with them); pending ones are never purged.
  {
    table: 'webhook_delivery',
    windowSeconds: days(30),
    expired: `status <> 'pending' and ${olderThan('updated_at')}`,
  },
  { table: 'webhook_attempt', windowSeconds: days(30), expired: olderThan('attempted_at') },
  { table: 'domain_event', windowSeconds: days(30), expired: olderThan('occurred_at') },
  // Sessions and one-time tokens: the window counts from when they stopped working.
  { table: 'session', windowSeconds: days(7), expired: olderThan('coalesce(revoked_at, expires_at)') },
  { table: 'account_token', windowSeconds: days(7), expired: olderThan('coalesce(used_at, expires_at)') },
  { table: 'idp_login', windowSeconds: days(1), expired: olderThan('expires_at') },
  // The live gateway trims its own history to the resume window; this catches what a dead process left.
  { table: 'live_history', windowSeconds: days(1), expired: olderThan('created_at') },
  { table: 'live_message', windowSeconds: hours(1), expired: olderThan('created_at') },
  // Client addresses (personal data) are kept for address bans during an event: two days after the
  // participant's last connection (a ban then covers what they connect from again, not this).
  { table: 'live_client_address', windowSeconds: days(2), expired: olderThan('seen_at') },
  // Emails that failed every attempt (graphile-worker keeps such jobs forever, with their links): kept a
  // week so an operator can read why (`last_error`), then purged. Queued and retrying emails are never purged.
  {
    table: 'failed_email',
    relation: 'graphile_worker._private_jobs',
    windowSeconds: days(7),
    expired: `task_id = (select id from graphile_worker._private_tasks where identifier = '${emailTask}')
      and attempts >= max_attempts and locked_at is null and ${olderThan('updated_at')}`,
  },
  // Rate-limit counters (`expire` in epoch milliseconds) whose window ended.
  {
    table: 'rate_limit',
    windowSeconds: hours(1),
    expired: 'expire is not null and expire < (extract(epoch from now()) - $1) * 1000',
  },
];

const units: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400 };

/** Parses RETENTION: `table=<n><s|m|h|d>` entries separated by commas; a named table must be in the list. */
export function retentionWindows(overrides: string): RetentionRule[] {
  const replaced = new Map<string, number>();
  for (const entry of overrides
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const m = /^([a-z_]+)=(\d+)([smhd])$/.exec(entry);
    if (!m) throw new Error(`RETENTION entry "${entry}" is not table=<number><s|m|h|d>`);
    if (!retentionRules.some((r) => r.table === m[1]))
      throw new Error(`RETENTION names an unknown table: ${m[1]}`);
    replaced.set(m[1]!, Number(m[2]) * units[m[3]!]!);
  }
  return retentionRules.map((r) => ({ ...r, windowSeconds: replaced.get(r.table) ?? r.windowSeconds }));
}

/** Rows deleted per statement, so a large backlog never holds long locks or one huge transaction. */
const batchSize = 5000;

/**
 * Deletes every row past its window, table by table, in batches. Safe to run from several processes
 * at once (a row is deleted once; the others find nothing), though the schedule runs it once per hour.
 */
export async function purgeExpired(db: Queryable, rules: RetentionRule[]): Promise<Record<string, number>> {
  const purged: Record<string, number> = {};
  for (const rule of rules) {
    let total = 0;
    const relation = rule.relation ?? rule.table;
    for (;;) {
      const res = await db.query(
        `delete from ${relation} where ctid = any(array(select ctid from ${relation} where ${rule.expired} limit ${batchSize}))`,
        [rule.windowSeconds],
      );
      total += res.rowCount ?? 0;
      if ((res.rowCount ?? 0) < batchSize) break;
    }
    purged[rule.table] = total;
  }
  return purged;
}

/** The task the job worker runs on the schedule. */
export function retentionJob(db: Queryable, rules: RetentionRule[], logger: Logger): Task {
  return async () => {
    const purged = await purgeExpired(db, rules);
    logger.info({ purged }, 'retention purge done');
  };
}
