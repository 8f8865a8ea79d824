/**
 * Tenant A of the fairness bench, in a process of its own: HAMMER_RATE requests/s, open-loop, to
 * `GET /v1/events` for HAMMER_SECONDS, its keys taken in turn. Prints `{ok, limited, other}` as JSON.
 */
const base = process.env.HAMMER_BASE!;
const keys = process.env.HAMMER_KEYS!.split(',');
const rate = Number(process.env.HAMMER_RATE);
const seconds = Number(process.env.HAMMER_SECONDS);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const counts = { ok: 0, limited: 0, other: 0 };
const inFlight = new Set<Promise<void>>();
const start = performance.now();
const total = Math.round(rate * seconds);
// Sent in small batches per timer tick: a timer per request would not keep up at hundreds per second.
const tickMs = 10;
for (let sent = 0; sent < total; ) {
  const due = Math.min(total, Math.floor(((performance.now() - start) * rate) / 1000) + 1);
  for (; sent < due; sent++) {
    const p: Promise<void> = fetch(`${base}/v1/events?limit=20`, {
      headers: { 'x-api-key': keys[sent % keys.length]! },
    })
      .then(async (res) => {
        await res.arrayBuffer();
        if (res.status === 200) counts.ok++;
        else if (res.status === 429) counts.limited++;
        else counts.other++;
      })
      .catch(() => {
        counts.other++;
      })
      .finally(() => inFlight.delete(p));
    inFlight.add(p);
  }
  await sleep(tickMs);
}
await Promise.all(inFlight);
process.stdout.write(JSON.stringify(counts));
