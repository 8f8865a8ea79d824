import { readFileSync } from 'node:fs';
import { findInputProblem, type LiveServerMessage, liveClientMessageSchema } from '@gathercast/contract';
import type { GathercastClient } from '@gathercast/sdk';
import { describe, expect, it } from 'vitest';
import type { AnyZodObject, ZodLiteral, ZodTypeAny } from 'zod';
import { eventIn } from './support/events';
import { useServerWithWorkspace } from './support/hooks';
import { LiveClient, tokenFor } from './support/live';
import type { TestServer } from './support/server';
import { getAt, leafPaths, Rng, sample, setAt } from './support/zod-samples';

/**
 * Every client message type of the live gateway, driven by the contract's own schema: valid messages
 * from three roles, then mutants (wrong types, missing and extra fields, huge strings, NUL, lone
 * surrogates, deep nesting, extreme numbers, unknown types, bad JSON, JSON that is not an object,
 * binary frames), an oversized frame per role and a flood. Fixed seed, bounded count. Every answer is
 * either nothing or an `error` with a code of the gateway's documented table (never `internal`), the
 * sockets stay open (but the oversized one, closed 1009) and the process keeps serving.
 */

const seed = 0x13f1e5;
const validPerType = 2;
/** Frames per socket before a fresh one: each frame is followed by a ping, 2 × 9 stays under the burst of 20. */
const framesPerSocket = 9;
const floodFrames = 300;
const maxFrameBytes = 16 * 1024;

/** The codes of the Errors table of docs/live-gateway.md: the test holds the gateway to its documentation. */
function documentedCodes(): string[] {
  const doc = readFileSync(new URL('../../docs/live-gateway.md', import.meta.url), 'utf8');
  const section = doc.split('### Errors')[1]!.split('\n## ')[0]!;
  return [...section.matchAll(/^\| `([a-z_]+)` \|/gm)].map((m) => m[1]!);
}

let t: TestServer;
let gc: GathercastClient;
useServerWithWorkspace((started) => {
  ({ t, gc } = started);
});

type Role = 'host' | 'speaker' | 'viewer';
interface Frame {
  kind: string;
  data: string | Buffer;
  /** Must be answered `bad_request` (anything else from a mutant: a documented code or nothing). */
  refused: boolean;
}

const wrongTypes: unknown[] = [12345, -1, true, null, [], {}, 'text', [1, 'a'], { nested: { x: 1 } }, 1.5];
const extremeNumbers = [1e308, -1e308, 2 ** 53 + 2, -0, 0.5, -1, 5e-324, 2147483648, Number.MAX_SAFE_INTEGER];
const lone = ['\ud800', 'a\udfffb', '\udbff\udbff', 'x\ud83d'];
const unknownTypes = [
  'pong',
  'welcome',
  'error',
  'PING',
  'ping ',
  '',
  '__proto__',
  'constructor',
  'toString',
  'question',
];
const badJson = [
  '{',
  '{"type":"ping"',
  'not json',
  '',
  '{"type":"ping"}}',
  "{'type':'ping'}",
  '{"type":"ping",}',
  '\u0000',
];
const notObjects = ['[]', '"ping"', '42', 'null', 'true', '[{"type":"ping"}]'];

function deep(levels: number): unknown {
  let value: unknown = 'leaf';
  for (let i = 0; i < levels; i++) value = { d: value };
  return value;
}

const messageSchemas = (liveClientMessageSchema._def as { options: AnyZodObject[] }).options;
const typeOf = (schema: AnyZodObject) => (schema.shape.type as ZodLiteral<string>).value;

/** Whether the gateway reads a frame as a valid `ping` (answered `pong`, like the separators). */
function isPing(frame: Frame): boolean {
  if (Buffer.isBuffer(frame.data)) return false;
  try {
    const json: unknown = JSON.parse(frame.data);
    if (findInputProblem(json, 'message')) return false;
    const parsed = liveClientMessageSchema.safeParse(json);
    return parsed.success && parsed.data.type === 'ping';
  } catch {
    return false;
  }
}

/** Ids of things that exist in the event: a sampled id is swapped for one of them most of the time. */
interface Known {
  questionId: string;
  pollId: string;
  participantId: string;
}

function validMessage(schema: ZodTypeAny, rng: Rng, known: Known): Record<string, unknown> {
  const message = sample(schema, rng) as Record<string, unknown>;
  for (const key of ['questionId', 'pollId', 'participantId'] as const)
    if (key in message && rng.chance(0.7)) message[key] = known[key];
  if (message.type === 'poll.vote' && rng.chance(0.7)) message.option = rng.int(0, 1);
  return message;
}

function framesFor(schema: ZodTypeAny, rng: Rng, known: Known): Frame[] {
  const text = (value: unknown, kind: string, refused = false): Frame => ({
    kind,
    data: JSON.stringify(value),
    refused,
  });
  const valid = () => validMessage(schema, rng, known);
  const leaves = (m: unknown) => leafPaths(m);
  const stringLeaf = (m: unknown) => rng.pick(leaves(m).filter((p) => typeof getAt(m, p) === 'string'));
  const frames: Frame[] = [];
  for (let i = 0; i < validPerType; i++) frames.push(text(valid(), 'valid'));
  let m = valid();
  frames.push(text(setAt(m, rng.pick(leaves(m)), rng.pick(wrongTypes)), 'wrong-type'));
  m = valid();
  const { [rng.pick(Object.keys(m))]: _dropped, ...rest } = m;
  frames.push(text(rest, 'missing-field', !('type' in rest)));
  m = valid();
  frames.push(text(setAt(m, stringLeaf(m), 'x'.repeat(rng.pick([1001, 5000, 15_000]))), 'huge-string'));
  m = valid();
  const nulPath = stringLeaf(m);
  frames.push(text(setAt(m, nulPath, `${String(getAt(m, nulPath)).slice(0, 1)}\u0000x`), 'nul', true));
  m = valid();
  frames.push(text(setAt(m, stringLeaf(m), rng.pick(lone)), 'surrogate', true));
  m = valid();
  frames.push(
    text(
      { ...m, [rng.pick(['extra', 'seq', 'role', 'participantId', 'eventId'])]: rng.pick(wrongTypes) },
      'extra-field',
    ),
  );
  frames.push({
    kind: 'proto-key',
    data: JSON.stringify(valid()).replace('{', '{"__proto__":{"role":"host"},'),
    refused: false,
  });
  m = valid();
  frames.push(
    text({ ...m, [rng.pick(['extra', 'text', 'cursor'])]: deep(rng.pick([33, 200])) }, 'deep', true),
  );
  frames.push({ kind: 'very-deep', data: `${'{"a":'.repeat(2500)}1${'}'.repeat(2500)}`, refused: true });
  m = valid();
  const numbers = leaves(m).filter((p) => typeof getAt(m, p) === 'number');
  frames.push(
    text(setAt(m, numbers.length ? rng.pick(numbers) : ['type'], rng.pick(extremeNumbers)), 'extreme-number'),
  );
  frames.push(text({ ...valid(), type: rng.pick(unknownTypes) }, 'unknown-type', true));
  frames.push({ kind: 'bad-json', data: rng.pick(badJson), refused: true });
  frames.push({ kind: 'not-object', data: rng.pick(notObjects), refused: true });
  frames.push({ kind: 'binary', data: Buffer.from(JSON.stringify(valid())), refused: true });
  for (const frame of frames)
    if (Buffer.byteLength(frame.data) > maxFrameBytes)
      throw new Error(`${frame.kind} frame over the limit: the oversized case is its own`);
  return frames;
}

interface Outcome {
  role: Role;
  frame: Frame;
  type: string;
  errors: string[];
}

/**
 * Sends frames on fresh sockets, each frame followed by a ping: messages of one socket are handled in
 * order, so the errors that arrive between two pongs answer the frame between the two pings.
 */
async function probe(
  token: () => Promise<string>,
  role: Role,
  type: string,
  frames: Frame[],
): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  for (let at = 0; at < frames.length; at += framesPerSocket) {
    const batch = frames.slice(at, at + framesPerSocket);
    const client = await LiveClient.join(t.server, await token());
    const start = client.messages.length;
    for (const frame of batch) {
      if (Buffer.isBuffer(frame.data)) client.ws.send(frame.data, { binary: true });
      else client.send(frame.data);
      client.send({ type: 'ping' });
    }
    // A frame that is itself a valid ping is answered with a pong of its own before its separator's.
    const pongs = batch.map((frame) => (isPing(frame) ? 2 : 1));
    for (let i = pongs.reduce((a, n) => a + n, 0); i > 0; i--) await client.next('pong');
    let errors: string[] = [];
    let index = 0;
    let seen = 0;
    for (const message of client.messages.slice(start) as LiveServerMessage[]) {
      if (message.type === 'error') errors.push(message.code);
      if (message.type !== 'pong' || ++seen < pongs[index]!) continue;
      outcomes.push({ role, frame: batch[index++]!, type, errors });
      errors = [];
      seen = 0;
    }
    expect(client.closeCode).toBeUndefined();
    await client.close();
  }
  return outcomes;
}

/** What is wrong with one outcome, or null. */
function verdict(o: Outcome, documented: string[]): string | null {
  const [first, ...more] = o.errors;
  if (more.length) return `answered ${o.errors.length} errors: ${o.errors.join(', ')}`;
  if (first === undefined) return o.frame.refused ? 'not refused' : null;
  if (first === 'internal' || !documented.includes(first)) return `answered ${first}`;
  if (o.frame.refused && first !== 'bad_request') return `answered ${first}, not bad_request`;
  return null;
}

describe('contract-driven fuzzing of the live gateway', () => {
  it('answers every message type, valid and mutated, from every role with nothing or a documented error, and keeps serving', async () => {
    const documented = documentedCodes();
    expect(documented).toEqual(
      expect.arrayContaining(['bad_request', 'forbidden', 'rate_limited', 'internal']),
    );
    const rng = new Rng(seed);
    const event = await eventIn(
      gc,
      'live',
      [{ modality: 'broadcast', featureSet: ['qa', 'chat', 'polls', 'reactions'] }],
      {
        visibility: 'public',
      },
    );
    // Named holders are real users: what they write refers to them.
    const user = (name: string) => gc.users.upsert({ externalSub: `fuzz-live-${name}-${event.id}`, name });
    const [hana, sam] = await Promise.all([user('Hana'), user('Sam')]);
    const hostToken = () => tokenFor(t.server, event.id, { role: 'host', userId: hana.id, name: 'Hana' });
    const host = await LiveClient.join(t.server, await hostToken());
    host.send({ type: 'question.create', text: 'Seeded question' });
    host.send({ type: 'poll.create', question: 'Seeded poll?', options: ['yes', 'no'] });
    const known: Known = {
      questionId: (await host.next('question.created')).question.id,
      pollId: (await host.next('poll')).pollId,
      participantId: host.all('welcome')[0]!.identity.participantId,
    };
    const tokens: Record<Role, () => Promise<string>> = {
      host: hostToken,
      speaker: () => tokenFor(t.server, event.id, { role: 'speaker', userId: sam.id, name: 'Sam' }),
      viewer: () => tokenFor(t.server, event.id, { role: 'viewer', anonymous: true }),
    };
    const plan = (Object.keys(tokens) as Role[]).flatMap((role) =>
      messageSchemas.map((schema) => ({ role, type: typeOf(schema), frames: framesFor(schema, rng, known) })),
    );
    const started = Date.now();
    // The three roles at once: concurrent sockets on one event, as in a real audience.
    const outcomes = (
      await Promise.all(
        (Object.keys(tokens) as Role[]).map(async (role) => {
          const out: Outcome[] = [];
          for (const step of plan.filter((p) => p.role === role))
            out.push(...(await probe(tokens[role], role, step.type, step.frames)));
          return out;
        }),
      )
    ).flat();

    const failures = outcomes
      .map((o) => [o, verdict(o, documented)] as const)
      .filter(([, wrong]) => wrong)
      .map(
        ([o, wrong]) =>
          `${o.role} ${o.type} [${o.frame.kind}] ${String(o.frame.data).slice(0, 100)}: ${wrong}`,
      );
    const byAnswer: Record<string, number> = {};
    for (const o of outcomes) {
      const key = o.errors[0] ?? 'no error';
      byAnswer[key] = (byAnswer[key] ?? 0) + 1;
    }
    console.log(
      `live fuzz (seed ${seed}): ${outcomes.length} frames, ${messageSchemas.length} message types, 3 roles, ${Date.now() - started} ms\n  by answer: ${JSON.stringify(byAnswer)}`,
    );
    expect(outcomes.length).toBe(plan.reduce((n, p) => n + p.frames.length, 0));
    expect(failures).toEqual([]);
    // Valid messages reached the handlers: most of them were not refused.
    expect(byAnswer['no error']).toBeGreaterThan(messageSchemas.length);
    expect(t.logs().filter((l) => l.msg === 'live message failed' || l.msg === 'unhandled error')).toEqual(
      [],
    );
    expect(host.closeCode).toBeUndefined();
    await host.close();
  }, 120_000);

  it('closes a socket that sends a frame over 16 KiB with 1009, from every role, and nothing else', async () => {
    const event = await eventIn(gc, 'live', [{ modality: 'broadcast', featureSet: ['chat'] }], {
      visibility: 'public',
    });
    const bystander = await LiveClient.join(
      t.server,
      await tokenFor(t.server, event.id, { role: 'viewer', anonymous: true }),
    );
    for (const role of ['host', 'speaker', 'viewer'] as const) {
      const sender = await LiveClient.join(
        t.server,
        await tokenFor(t.server, event.id, { role, anonymous: role === 'viewer' }),
      );
      sender.send({ type: 'chat.send', text: 'x'.repeat(maxFrameBytes) });
      expect(await sender.closed).toBe(1009);
    }
    bystander.send({ type: 'ping' });
    await bystander.next('pong');
    expect(bystander.closeCode).toBeUndefined();
    await bystander.close();
  });

  it(`answers each of ${floodFrames} mutants sent at once with one error (bad_request or rate_limited) and keeps the socket`, async () => {
    const rng = new Rng(seed + 1);
    const event = await eventIn(gc, 'live', [{ modality: 'broadcast', featureSet: ['chat'] }], {
      visibility: 'public',
    });
    const known: Known = { questionId: rng.uuid(), pollId: rng.uuid(), participantId: 'anon:x' };
    const refused = messageSchemas.flatMap((schema) =>
      framesFor(schema, rng, known).filter((f) => f.refused),
    );
    const flooder = await LiveClient.join(
      t.server,
      await tokenFor(t.server, event.id, { role: 'viewer', anonymous: true }),
    );
    for (let i = 0; i < floodFrames; i++) {
      const frame = refused[i % refused.length]!;
      if (Buffer.isBuffer(frame.data)) flooder.ws.send(frame.data, { binary: true });
      else flooder.send(frame.data);
    }
    for (let i = 0; i < floodFrames; i++) await flooder.next('error');
    const codes = new Set(flooder.all('error').map((e) => e.code));
    expect([...codes].sort()).toEqual(['bad_request', 'rate_limited']);
    expect(flooder.all('error')).toHaveLength(floodFrames);
    expect(flooder.closeCode).toBeUndefined();
    // The process still serves: HTTP, and a fresh socket.
    expect((await fetch(`${t.url}/readyz`)).status).toBe(200);
    const other = await LiveClient.join(
      t.server,
      await tokenFor(t.server, event.id, { role: 'viewer', anonymous: true }),
    );
    other.send({ type: 'ping' });
    await other.next('pong');
    await other.close();
    await flooder.close();
  });
});
