/**
 * Credentials resolved on earlier requests (API keys, sessions with the caller's member role), so
 * that an authenticated request normally needs no database round trip. A revocation must still
 * take effect on the very next request on every process; three rules make that hold:
 *
 * 1. Lease: entries are served only while this process's change listener has proved, less than
 *    `leaseMs` ago, that it is receiving credential-change notifications (db/credential-changes.ts).
 * 2. Flush: any credential-change notification empties the cache, and a lookup that began before a
 *    flush is not stored (its answer may predate the change).
 * 3. Barrier: the request that revokes answers only once every other process has acknowledged the
 *    flush or lost its lease (CredentialChanges#propagated).
 */
export interface CredentialCacheOptions {
  /** How long one successful listener heartbeat lets the cache serve entries. */
  leaseMs: number;
  /** Entries older than this are looked up again even without a notification (belt and braces). */
  maxAgeMs: number;
  maxEntries: number;
  now?: () => number;
}

interface Entry {
  value: unknown;
  storedAt: number;
}

export class CredentialCache {
  readonly #entries = new Map<string, Entry>();
  readonly #options: Required<CredentialCacheOptions>;
  #generation = 0;
  #leaseUntil = Number.NEGATIVE_INFINITY;

  constructor(options: CredentialCacheOptions) {
    this.#options = { now: () => performance.now(), ...options };
  }

  /** Whether entries may be served now (the listener renewed the lease recently). */
  get leased(): boolean {
    return this.#options.now() < this.#leaseUntil;
  }

  /** How long one successful listener heartbeat lets the cache serve entries. */
  get leaseMs(): number {
    return this.#options.leaseMs;
  }

  get<T>(key: string): T | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (!this.leased || this.#options.now() - entry.storedAt > this.#options.maxAgeMs) {
      this.#entries.delete(key);
      return undefined;
    }
    return entry.value as T;
  }

  /**
   * The cached value for `key` when there is one and it is `usable`; else `load()`'s answer, which is
   * stored unless the cache was flushed (or its lease lost) while loading: that answer may predate
   * the change the flush announced. Undefined answers (unknown credentials) are never stored.
   */
  async lookup<T>(
    key: string,
    load: () => Promise<T | undefined>,
    usable: (value: T) => boolean = () => true,
  ): Promise<T | undefined> {
    const cached = this.get<T>(key);
    if (cached !== undefined && usable(cached)) return cached;
    const generation = this.#generation;
    const value = await load();
    if (value !== undefined && generation === this.#generation && this.leased) this.#store(key, value);
    return value;
  }

  #store(key: string, value: unknown): void {
    if (this.#entries.size >= this.#options.maxEntries) {
      // Maps iterate in insertion order: drop the oldest entry.
      const oldest = this.#entries.keys().next();
      if (!oldest.done) this.#entries.delete(oldest.value);
    }
    this.#entries.set(key, { value, storedAt: this.#options.now() });
  }

  /** Forgets everything, including lookups still in flight. */
  flush(): void {
    this.#generation++;
    this.#entries.clear();
  }

  /**
   * The listener received every notification committed before `provenAt` (a `performance.now()`
   * reading taken before its heartbeat query was sent): serve entries until `provenAt + leaseMs`.
   */
  renewLease(provenAt: number): void {
    this.#leaseUntil = Math.max(this.#leaseUntil, provenAt + this.#options.leaseMs);
  }

  /** The listener is gone: serve nothing until it proves itself again. */
  dropLease(): void {
    this.#leaseUntil = Number.NEGATIVE_INFINITY;
    this.flush();
  }
}
