import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * Runs `fn` over `items` a slice at a time, letting the event loop turn between slices. For background
 * sends to a whole audience (the periodic counts, keep-alive pings): done in one go at 10,000 sockets
 * they hold the loop for about a tenth of a second, and a host's message arriving meanwhile waits for
 * all of it; between slices it is read, and its own fan-out goes first.
 */
export async function inTurns<T>(items: readonly T[], perTurn: number, fn: (item: T) => void): Promise<void> {
  for (let start = 0; start < items.length; start += perTurn) {
    if (start > 0) await nextTurn();
    for (const item of items.slice(start, start + perTurn)) fn(item);
  }
}
