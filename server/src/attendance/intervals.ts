/**
 * Time in the live room from presence facts (participant.joined on a person's first connection
 * anywhere, participant.left on their last). The rules are presence's own: a person is gone only once
 * absent for longer than `resumeGapMs`, the time a crashed process's connections stay counted (the
 * presence TTL), so a reconnect, a resume or a failover to another process within it is one stay.
 */

export interface PresenceFact {
  participantId: string;
  joined: boolean;
  at: number;
}

export interface Interval {
  from: number;
  to: number;
}

/** Gaps up to this long are merged (the presence TTL: 30 s). */
export const resumeGapMs = 30_000;

/** Each person's intervals, clipped to [start, end], an open one closed at `end`, short gaps merged. */
export function intervalsByParticipant(
  facts: PresenceFact[],
  start: number,
  end: number,
  gapMs = resumeGapMs,
): Map<string, Interval[]> {
  const open = new Map<string, number>();
  const raw = new Map<string, Interval[]>();
  const close = (id: string, from: number, to: number) => {
    const a = Math.max(from, start);
    const b = Math.min(to, end);
    if (b > a) raw.set(id, [...(raw.get(id) ?? []), { from: a, to: b }]);
  };
  for (const f of [...facts].sort((x, y) => x.at - y.at)) {
    const since = open.get(f.participantId);
    if (f.joined) {
      if (since === undefined) open.set(f.participantId, f.at);
    } else if (since !== undefined) {
      close(f.participantId, since, f.at);
      open.delete(f.participantId);
    }
  }
  for (const [id, since] of open) close(id, since, end);
  const merged = new Map<string, Interval[]>();
  for (const [id, list] of raw) merged.set(id, mergeGaps(list, gapMs));
  return merged;
}

/** Sorted intervals with gaps ≤ gapMs joined into one. */
export function mergeGaps(list: Interval[], gapMs: number): Interval[] {
  const out: Interval[] = [];
  for (const i of [...list].sort((x, y) => x.from - y.from)) {
    const last = out[out.length - 1];
    if (last && i.from - last.to <= gapMs) last.to = Math.max(last.to, i.to);
    else out.push({ ...i });
  }
  return out;
}

export const totalMs = (list: Interval[]) => list.reduce((sum, i) => sum + (i.to - i.from), 0);

/** The overlap of `list` with [from, to]. */
export const overlapMs = (list: Interval[], from: number, to: number) =>
  list.reduce((sum, i) => sum + Math.max(0, Math.min(i.to, to) - Math.max(i.from, from)), 0);

/** The most intervals open at one instant (an end and a start at the same instant do not overlap). */
export function peakConcurrent(all: Interval[]): number {
  const edges = all.flatMap((i) => [
    { at: i.from, d: 1 },
    { at: i.to, d: -1 },
  ]);
  edges.sort((a, b) => a.at - b.at || a.d - b.d);
  let now = 0;
  let peak = 0;
  for (const e of edges) {
    now += e.d;
    peak = Math.max(peak, now);
  }
  return peak;
}

/** Minutes to 0.01. */
export const minutes = (ms: number) => Math.round(ms / 600) / 100;
