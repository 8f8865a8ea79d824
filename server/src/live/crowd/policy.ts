import { type CrowdClock, systemClock } from './clock';

/**
 * When and how often a large audience hears its own activity (docs/live-gateway.md, "Large
 * audiences"). Below `threshold` sockets of an event on a process (meetings, breakouts, a webinar of
 * a few dozen) every action is its own message at once, as it always was. From it on, poll counts,
 * Q&A tallies, new questions, reactions and chat are folded per event and sent as one `batch` frame
 * per interval: the interval grows with the audience (a frame costs one write per socket) from 100 ms
 * to 500 ms at 10,000 sockets, so a viewer gets at most 2–10 batch frames a second and a 10,000-viewer
 * poll costs 2 × 10,000 writes a second however many vote, yet the final counts land within one
 * interval of the last vote.
 */
export interface CrowdPolicy {
  threshold: number;
  intervalMs(audience: number): number;
  /** Chat lines per interval every viewer gets; past it, viewers get a fair sample. */
  chatCap(intervalMs: number): number;
  clock: CrowdClock;
  /** Random numbers in [0, 1) for the chat sample (injectable for tests). */
  random(): number;
}

/** Sockets of one event on one process from which its activity is batched. */
export const defaultThreshold = 200;
const minIntervalMs = 100;
const maxIntervalMs = 500;
/** One millisecond of interval per this many sockets: 100 ms up to 2,000 sockets, 500 ms from 10,000. */
const socketsPerMs = 20;
/** Chat lines a second a viewer can follow (YouTube's busiest chats show a few a second; this keeps all of a lively one). */
const chatLinesPerSecond = 40;

export interface CrowdOptions {
  threshold?: number;
  /** A fixed interval instead of the audience-sized one. */
  intervalMs?: number;
  chatCap?: number;
  clock?: CrowdClock;
  random?: () => number;
}

export function crowdPolicy(options: CrowdOptions = {}): CrowdPolicy {
  return {
    threshold: options.threshold ?? defaultThreshold,
    intervalMs: (audience) =>
      options.intervalMs ??
      Math.min(maxIntervalMs, Math.max(minIntervalMs, Math.round(audience / socketsPerMs))),
    chatCap: (intervalMs) =>
      options.chatCap ?? Math.max(1, Math.ceil((chatLinesPerSecond * intervalMs) / 1000)),
    clock: options.clock ?? systemClock,
    random: options.random ?? Math.random,
  };
}
