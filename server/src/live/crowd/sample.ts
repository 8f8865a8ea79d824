/**
 * A fair sample of an interval's chat lines for viewers: senders take turns (one line each, in a
 * random order of senders, then a second line each, …) until `cap` lines are chosen, so a few fast
 * typers cannot crowd everyone else out; the chosen lines keep their order.
 */
export function fairSample<T>(
  lines: T[],
  cap: number,
  senderOf: (line: T) => string,
  random: () => number,
): T[] {
  if (lines.length <= cap) return lines;
  const bySender = new Map<string, number[]>();
  for (const [i, line] of lines.entries()) {
    const sender = senderOf(line);
    const own = bySender.get(sender) ?? [];
    own.push(i);
    bySender.set(sender, own);
  }
  const senders = [...bySender.values()];
  // Fisher–Yates: every order of senders equally likely.
  for (let i = senders.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [senders[i], senders[j]] = [senders[j]!, senders[i]!];
  }
  const chosen: number[] = [];
  for (let turn = 0; chosen.length < cap; turn++)
    for (const own of senders) {
      if (chosen.length >= cap) break;
      if (turn < own.length) chosen.push(own[turn]!);
    }
  return chosen.sort((a, b) => a - b).map((i) => lines[i]!);
}
