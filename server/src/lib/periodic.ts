import type { Logger } from 'pino';

/**
 * A job every process runs on a timer (due reminders, queued emails, attendance reports). Runs never
 * overlap within a process; across processes the job's own row claims keep each piece of work to one
 * process. `stop()` waits for a run under way. A failed run is logged; the next tick tries again.
 */
export class Periodic {
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;
  #stopped = false;

  constructor(
    private readonly name: string,
    private readonly intervalMs: number,
    private readonly run: () => Promise<void>,
    private readonly logger: Logger,
  ) {}

  start(): void {
    this.#timer = setInterval(() => this.kick(), this.intervalMs);
    this.#timer.unref();
    this.kick();
  }

  /** Runs now unless a run is under way. */
  kick(): void {
    if (this.#stopped || this.#running) return;
    this.#running = this.run()
      .catch((err: unknown) => this.logger.warn({ err, job: this.name }, 'scheduled job failed'))
      .finally(() => {
        this.#running = undefined;
      });
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearInterval(this.#timer);
    await this.#running;
  }
}
