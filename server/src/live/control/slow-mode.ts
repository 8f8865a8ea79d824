/**
 * When each sender of an event last chatted, kept where every server process of the deployment reads
 * it (PostgreSQL, or Redis with REDIS_URL: backends/slow-mode-*.ts), so slow mode holds for a sender
 * whose sockets are on several processes or who reconnects to another one. The store's own clock
 * decides, never a process's.
 */
export interface SlowModeStore {
  /**
   * Takes the sender's slot when their previous line is at least `gapMs` old (or there is none):
   * answers 0 and the line counts from now. Otherwise answers the milliseconds left, and nothing changes.
   * Atomic: of two lines of one sender at once on two processes, one gets the slot.
   */
  claim(
    line: { workspaceId: string; eventId: string; participantId: string },
    gapMs: number,
  ): Promise<number>;
  close(): Promise<void>;
}

/** A line is remembered at least this long: the longest gap slow mode accepts (3600 s). */
export const longestGapMs = 3600 * 1000;
