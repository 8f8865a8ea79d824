// What each viewer of the storm scenario received: frames and bytes, when the host's mid-storm line
// reached it, and when it first saw the exact final figure of the storm (a poll's or a question's).
import { percentile } from './stats';

export const stormMarker = 'storm#';

export class StormViews {
  frames: Int32Array;
  bytes: Float64Array;
  /** When the host's line with the current marker reached each viewer (0: not yet). */
  hostAt: Float64Array;
  /** When each viewer first saw the final figure (0: not yet). */
  finalAt: Float64Array;
  hostMarker = '';
  /** The final-figure test of the current storm; it only parses frames that may hold it. */
  final: { hint: string; test: (message: Record<string, unknown>) => boolean } | undefined;
  #finals = 0;

  constructor(readonly size: number) {
    this.frames = new Int32Array(size);
    this.bytes = new Float64Array(size);
    this.hostAt = new Float64Array(size);
    this.finalAt = new Float64Array(size);
  }

  reset(): void {
    this.frames.fill(0);
    this.bytes.fill(0);
    this.hostAt.fill(0);
    this.finalAt.fill(0);
    this.hostMarker = '';
    this.final = undefined;
    this.#finals = 0;
  }

  frame(i: number, data: Buffer): void {
    const at = performance.now();
    this.frames[i]!++;
    this.bytes[i]! += data.length;
    if (this.hostMarker && this.hostAt[i] === 0 && data.includes(this.hostMarker)) this.hostAt[i] = at;
    const final = this.final;
    if (!final || this.finalAt[i] !== 0 || !data.includes(final.hint)) return;
    const message = JSON.parse(data.toString('utf8')) as Record<string, unknown>;
    const inner = message.type === 'batch' ? (message.messages as Record<string, unknown>[]) : [message];
    if (inner.some(final.test)) {
      this.finalAt[i] = at;
      this.#finals++;
    }
  }

  get finals(): number {
    return this.#finals;
  }

  /** Latencies from `since` of the receipts in `at` (0s left out), with how many are missing. */
  static latencies(at: Float64Array, since: number) {
    const xs: number[] = [];
    let missing = 0;
    for (const t of at)
      if (t > 0) xs.push(t - since);
      else missing++;
    return { p50: percentile(xs, 50), p99: percentile(xs, 99), max: percentile(xs, 100), missing };
  }
}
