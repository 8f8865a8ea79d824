/**
 * Table assignment: `n` people at tables of at most `size`, as few tables as that
 * allows, sizes differing by at most one. Rotation rounds regroup everyone while avoiding pairs who
 * already met, where possible: the best of a number of randomized greedy placements.
 */

/** Seats per table: ceil(n / size) tables, the first n % tables of them one seat larger. */
export function tableCapacities(n: number, size: number): number[] {
  if (n === 0) return [];
  const tables = Math.ceil(n / size);
  const base = Math.floor(n / tables);
  const extra = n % tables;
  return Array.from({ length: tables }, (_, i) => base + (i < extra ? 1 : 0));
}

const pairKey = (a: string, b: string) => (a < b ? `${a}|${b}` : `${b}|${a}`);

/** Pairs sitting together in one assignment (table number per participant). */
export function pairsOf(assignment: Map<string, number>): Set<string> {
  const byTable = new Map<number, string[]>();
  for (const [id, table] of assignment) byTable.set(table, [...(byTable.get(table) ?? []), id]);
  const pairs = new Set<string>();
  for (const ids of byTable.values())
    for (let i = 0; i < ids.length; i++)
      for (let j = i + 1; j < ids.length; j++) pairs.add(pairKey(ids[i]!, ids[j]!));
  return pairs;
}

function shuffled<T>(items: T[], random: () => number): T[] {
  const a = [...items];
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [a[i], a[j]] = [a[j]!, a[i]!];
  }
  return a;
}

/**
 * Tables numbered from 1. Without `met` pairs any balanced placement will do; with them, the
 * placement with the fewest repeated pairs out of `attempts` randomized greedy tries.
 */
export function groupIntoTables(
  ids: string[],
  size: number,
  met: Set<string> = new Set(),
  attempts = 200,
  random: () => number = Math.random,
): Map<string, number> {
  const capacities = tableCapacities(ids.length, size);
  let best: Map<string, number> | undefined;
  let bestRepeats = Number.POSITIVE_INFINITY;
  for (let attempt = 0; attempt < (met.size ? attempts : 1); attempt++) {
    const tables: string[][] = capacities.map(() => []);
    let repeats = 0;
    for (const id of shuffled(ids, random)) {
      let pick = -1;
      let pickCost = Number.POSITIVE_INFINITY;
      for (let t = 0; t < tables.length; t++) {
        const seated = tables[t]!;
        if (seated.length >= capacities[t]!) continue;
        const cost = seated.filter((other) => met.has(pairKey(id, other))).length * 1000 + seated.length;
        if (cost < pickCost) {
          pick = t;
          pickCost = cost;
        }
      }
      repeats += Math.floor(pickCost / 1000);
      tables[pick]!.push(id);
    }
    if (repeats < bestRepeats) {
      bestRepeats = repeats;
      best = new Map(tables.flatMap((seated, t) => seated.map((id) => [id, t + 1] as const)));
      if (repeats === 0) break;
    }
  }
  return best ?? new Map();
}
