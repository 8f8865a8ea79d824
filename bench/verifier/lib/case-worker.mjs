// One case per worker thread: its own V8 isolate, so the JIT sees only that case's input types, as
// in a receiver (which verifies one kind of body). Measuring every case in one isolate would make
// functions shared by several cases (ours, and the bare check) polymorphic and charge that to
// whichever case runs them.
import { parentPort, workerData } from 'node:worker_threads';
import { buildCases } from './cases.mjs';
import { sample } from './measure.mjs';
import { makePayloads } from './payloads.mjs';

const payloads = makePayloads(workerData.payloadCount);
const c = buildCases(payloads).find((x) => x.name === workerData.name);
if (!c) throw new Error(`unknown case ${workerData.name}`);
// Every delivery must verify before anything is timed.
for (let i = 0; i < payloads.length; i++) await c.fn(i);

parentPort.on('message', async ({ ms }) => {
  parentPort.postMessage(await sample(c, payloads.length, ms));
});
parentPort.postMessage('ready');
