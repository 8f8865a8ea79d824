import { verifySync, signSync } from '@gathercast/webhook-verifier/node';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { makePayloads } from './lib/payloads.mjs';
const secret = 'whsec_' + 'a'.repeat(48);
const ps = makePayloads(64); const t = Math.floor(Date.now()/1000);
const ds = ps.map(p => ({ body: p.body, bytes: p.bytes, headers: {'x-gc-signature': signSync({secret, payload: p.body, timestamp: t}), 'x-gc-event-id': p.id, 'x-gc-event-type':'x', 'content-type':'application/json'} }));
ds.forEach(d => d.v1 = d.headers['x-gc-signature'].split('v1=')[1]);
function bench(fn, n = 100000) { for (let i=0;i<2000;i++) fn(i&63); const s = performance.now(); for (let i=0;i<n;i++) fn(i&63); return (performance.now()-s)*1000/n; }
const cases = {
  bareParse: (i) => { const d = ds[i]; const mac = createHmac('sha256', secret).update(`${t}.`).update(d.body).digest(); if (!timingSafeEqual(mac, Buffer.from(d.v1,'hex'))) throw 1; return JSON.parse(d.body); },
  ours: (i) => verifySync(ds[i].body, ds[i].headers, secret),
  bareBufParse: (i) => { const d = ds[i]; const mac = createHmac('sha256', secret).update(`${t}.`).update(d.bytes).digest(); if (!timingSafeEqual(mac, Buffer.from(d.v1,'hex'))) throw 1; return JSON.parse(d.bytes.toString()); },
  oursBuf: (i) => verifySync(ds[i].bytes, ds[i].headers, secret),
};
const res = Object.fromEntries(Object.keys(cases).map(k => [k, []]));
for (let r = 0; r < 9; r++) for (const [k, fn] of Object.entries(cases)) res[k].push(bench(fn, 30000));
for (const [k, v] of Object.entries(res)) { v.sort((a,b)=>a-b); console.log(k, v[4].toFixed(2), v.map(x=>x.toFixed(1)).join(' ')); }
