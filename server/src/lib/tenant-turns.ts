/**
 * How many requests of one tenant this process works on at once. Budgets (rate limits) bound how much
 * a tenant may ask per second; they cannot stop a tenant whose requests pile up when the process is
 * slow (a burst, a loaded machine) from filling the event loop and the database pool, so that every
 * other tenant's request waits behind its backlog. Here each tenant gets at most `perTenant` requests
 * in progress; its next ones wait in its own line (first come, first served) and start as its own
 * finish. Another tenant's request never waits behind that line: it competes with at most
 * `perTenant` requests of each busy tenant.
 *
 * A line is bounded twice, so waiting never hides an overload: a request that would be the
 * `maxWaiting + 1`-th in its tenant's line, or that waited `maxWaitMs`, is refused (the caller answers
 * 429 and the client retries later). The rule is per process: a process's event loop and pool are what
 * it protects.
 */
export interface TenantTurnsOptions {
  perTenant: number;
  maxWaiting: number;
  maxWaitMs: number;
}

/** Ends a turn: the tenant's next waiting request (if any) starts. Safe to call more than once. */
export type EndTurn = () => void;

export type Turn = { ok: true; end: EndTurn } | { ok: false; reason: 'line_full' | 'waited_too_long' };

interface Waiter {
  start: (end: EndTurn) => void;
  timer: ReturnType<typeof setTimeout>;
}

interface Line {
  inProgress: number;
  waiting: Waiter[];
}

export class TenantTurns {
  readonly #lines = new Map<string, Line>();

  constructor(private readonly options: TenantTurnsOptions) {}

  /** Waits for `tenant`'s turn; answers at once when the tenant has fewer than `perTenant` in progress. */
  take(tenant: string): Promise<Turn> {
    const line = this.#lines.get(tenant) ?? { inProgress: 0, waiting: [] };
    this.#lines.set(tenant, line);
    if (line.inProgress < this.options.perTenant) {
      line.inProgress++;
      return Promise.resolve({ ok: true, end: this.#ender(tenant, line) });
    }
    if (line.waiting.length >= this.options.maxWaiting)
      return Promise.resolve({ ok: false, reason: 'line_full' });
    return new Promise<Turn>((resolve) => {
      const waiter: Waiter = {
        start: (end) => resolve({ ok: true, end }),
        timer: setTimeout(() => {
          line.waiting.splice(line.waiting.indexOf(waiter), 1);
          resolve({ ok: false, reason: 'waited_too_long' });
        }, this.options.maxWaitMs),
      };
      line.waiting.push(waiter);
    });
  }

  /** Requests in progress and waiting, per tenant with any (for tests and metrics). */
  get state(): Map<string, { inProgress: number; waiting: number }> {
    return new Map(
      [...this.#lines].map(([t, l]) => [t, { inProgress: l.inProgress, waiting: l.waiting.length }]),
    );
  }

  #ender(tenant: string, line: Line): EndTurn {
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      const next = line.waiting.shift();
      if (next) {
        clearTimeout(next.timer);
        next.start(this.#ender(tenant, line)); // the turn passes on: in progress stays the same
        return;
      }
      line.inProgress--;
      if (line.inProgress === 0) this.#lines.delete(tenant);
    };
  }
}
