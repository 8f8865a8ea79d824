import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * Runs `fn` over `items` a slice at a time, letting the event loop turn between slices. For background
 * sends to a whole audience (the periodic counts, keep-alive pings): done in one go at 10,000 sockets
 * they hold the loop for about a tenth of a second, and a host's message arriving meanwhile waits for
 * all of it; between slices it is read, and its own fan-out goes first. The default slice, 500 sockets,
 * is a few milliseconds of sends: such a message waits for one slice at most.
 */
export async function inTurns<T>(items: readonly T[], fn: (item: T) => void, perTurn = 500): Promise<void> {
  for (let i = 0; i < items.length; i++) {
    if (i > 0 && i % perTurn === 0) await nextTurn();
    fn(items[i]!);
  }
}
