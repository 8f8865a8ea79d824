/**
 * Coalesces many small requests into one call of `run` (one SQL statement for many deliveries).
 *
 * By default no timer: a request that arrives while fewer than `maxInFlight` batches are running is
 * sent at once, so a lone attempt pays no extra latency. Requests that arrive while the database is
 * busy wait for a free slot and then go together, so the statement count per delivery falls exactly
 * when round trips are the bottleneck.
 */
export class Batcher<I, O> {
  private readonly waiting: { input: I; resolve: (o: O) => void; reject: (e: unknown) => void }[] = [];
  private inFlight = 0;
  private lingering: NodeJS.Timeout | undefined;

  /**
   * `run` must return one output per input, in order. `lingerMs`, asked before each batch that is not
   * full: how long to let it fill first (0, the default: go at once). A caller whose requesters do not
   * wait for the outcome (a live join's presence write, made after its welcome) lingers while its
   * process is busy, so a storm goes in fewer, larger statements.
   */
  constructor(
    private readonly run: (inputs: I[]) => Promise<O[]>,
    private readonly maxBatch = 100,
    private readonly maxInFlight = 2,
    private readonly lingerMs: () => number = () => 0,
  ) {}

  submit(input: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.waiting.push({ input, resolve, reject });
      this.pump();
    });
  }

  private pump(lingered = false): void {
    while (this.inFlight < this.maxInFlight && this.waiting.length > 0) {
      if (!lingered && this.waiting.length < this.maxBatch) {
        if (this.lingering) return;
        const linger = this.lingerMs();
        if (linger > 0) {
          this.lingering = setTimeout(() => {
            this.lingering = undefined;
            this.pump(true);
          }, linger);
          return;
        }
      }
      lingered = false;
      const batch = this.waiting.splice(0, this.maxBatch);
      this.inFlight++;
      this.run(batch.map((b) => b.input))
        .then(
          (out) => {
            for (const [i, b] of batch.entries()) b.resolve(out[i]!);
          },
          // One failed statement fails every request in it; each job is then retried by graphile-worker.
          (err) => {
            for (const b of batch) b.reject(err);
          },
        )
        .finally(() => {
          this.inFlight--;
          this.pump();
        });
    }
  }
}
