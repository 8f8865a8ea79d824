/**
 * Coalesces many small requests into one call of `run` (one SQL statement for many deliveries).
 *
 * No timer: a request that arrives while fewer than `maxInFlight` batches are running is sent at
 * once, so a lone attempt pays no extra latency. Requests that arrive while the database is busy
 * wait for a free slot and then go together, so the statement count per delivery falls exactly when
 * round trips are the bottleneck.
 */
export class Batcher<I, O> {
  private readonly waiting: { input: I; resolve: (o: O) => void; reject: (e: unknown) => void }[] = [];
  private inFlight = 0;

  /** `run` must return one output per input, in order. */
  constructor(
    private readonly run: (inputs: I[]) => Promise<O[]>,
    private readonly maxBatch = 100,
    private readonly maxInFlight = 2,
  ) {}

  submit(input: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.waiting.push({ input, resolve, reject });
      this.pump();
    });
  }

  private pump(): void {
    while (this.inFlight < this.maxInFlight && this.waiting.length > 0) {
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
