import { getAt, leafPaths, Rng, setAt } from './zod-samples';

/*
 * The HTTP fuzzer's mutants (fuzz.http.test.ts): what it does to a valid body, a path parameter and a
 * query string. Each is hostile input a client could send; the server must answer each below 500.
 */

const badTimestamps = [
  '2026-06-01T10:00:00+18:35',
  '2026-06-01T10:00:00-16:00',
  '0000-01-01T00:00:00Z',
  '9999-12-31T23:59:59-15:00',
  '2026-13-01T00:00:00Z',
  '2026-02-30T00:00:00Z',
  '2026-06-01T24:00:00Z',
  '+275760-09-13T00:00:00Z',
];
const wrongTypes: unknown[] = [12345, -1, true, null, [], {}, 'text', [1, 'a'], { nested: { x: 1 } }];
const extremeNumbers = [1e308, -1e308, 2 ** 53 + 2, -0, 0.5, -1, 5e-324, 2147483648, -2147483649];

function deep(levels: number): unknown {
  let value: unknown = 'leaf';
  for (let i = 0; i < levels; i++) value = { d: value };
  return value;
}

/** One mutant of a valid body, as JSON text (or another text where the mutant is the text itself). */
export function mutateBody(body: unknown, rng: Rng, kind: string): { body?: string; contentType?: string } {
  const leaves = leafPaths(body);
  const strings = leaves.filter((p) => typeof getAt(body, p) === 'string');
  const numbers = leaves.filter((p) => typeof getAt(body, p) === 'number');
  const anyLeaf = () => (leaves.length ? rng.pick(leaves) : [rng.word()]);
  const stringLeaf = () => (strings.length ? rng.pick(strings) : [rng.word()]);
  const json = (value: unknown) => ({ body: JSON.stringify(value) });
  switch (kind) {
    case 'wrong-type':
      return json(setAt(body, anyLeaf(), rng.pick(wrongTypes)));
    case 'nul': {
      const path = stringLeaf();
      const text = String(getAt(body, path) ?? 'a');
      return json(setAt(body, path, `${text.slice(0, 1)}\u0000${text.slice(1)}`));
    }
    case 'nul-key':
      return json({ ...(body as object), metadata: { [`k\u0000${rng.word()}`]: 'v' } });
    case 'surrogate':
      return json(setAt(body, stringLeaf(), rng.pick(['\ud800', 'a\udfffb', '\udbff\udbff', 'x\ud83d'])));
    case 'deep':
      return json(setAt(body, anyLeaf(), deep(rng.pick([33, 60, 500]))));
    case 'very-deep':
      return { body: `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}` };
    case 'huge-string':
      return json(setAt(body, stringLeaf(), 'x'.repeat(rng.pick([10_000, 300_000]))));
    case 'bad-timestamp': {
      const dates = strings.filter((p) => /^\d{4}-\d\d-\d\dT/.test(String(getAt(body, p))));
      const path = dates.length ? rng.pick(dates) : ['scheduledAt'];
      return json(setAt(typeof body === 'object' && body ? body : {}, path, rng.pick(badTimestamps)));
    }
    case 'extreme-number':
      return json(setAt(body, numbers.length ? rng.pick(numbers) : anyLeaf(), rng.pick(extremeNumbers)));
    case 'extra-field':
      return json({
        ...(typeof body === 'object' && body ? body : {}),
        [rng.pick(['unexpected', 'id', 'workspaceId', 'role', 'constructor', 'status'])]:
          rng.pick(wrongTypes),
      });
    case 'proto-key':
      return { body: `{"__proto__":{"admin":true},"metadata":{"__proto__":{"x":1}}}` };
    case 'missing-field': {
      if (!body || typeof body !== 'object' || Array.isArray(body)) return json({});
      const keys = Object.keys(body);
      if (!keys.length) return json({ [rng.word()]: 1 });
      const { [rng.pick(keys)]: _dropped, ...rest } = body as Record<string, unknown>;
      return json(rest);
    }
    case 'empty-string':
      return json(setAt(body, stringLeaf(), rng.pick(['', '   ', '\t\n'])));
    case 'odd-unicode':
      return json(
        setAt(
          body,
          stringLeaf(),
          rng.pick(['\uFEFF', '\u202Eevil', 'e\u0301\u0301\u0301', '🚀'.repeat(50), '\u0001\u001f']),
        ),
      );
    case 'body-shape':
      return { body: rng.pick(['[]', '"text"', '42', 'null', '{', '{"a":1,}', '', 'true']) };
    case 'content-type':
      return {
        body: rng.pick(['name=x&title=y', JSON.stringify(body ?? {}), '<x/>']),
        contentType: rng.pick([
          'application/x-www-form-urlencoded',
          'text/plain',
          'multipart/form-data; boundary=x',
          'application/xml',
          '',
        ]),
      };
    case 'json-charset':
      return {
        body: JSON.stringify(body ?? {}),
        contentType: rng.pick(['application/json; charset=latin1', 'application/json; charset=utf-16']),
      };
    default:
      throw new Error(`unknown mutant ${kind}`);
  }
}

export const bodyMutants = [
  'wrong-type',
  'nul',
  'nul-key',
  'surrogate',
  'deep',
  'very-deep',
  'huge-string',
  'bad-timestamp',
  'extreme-number',
  'extra-field',
  'proto-key',
  'missing-field',
  'empty-string',
  'odd-unicode',
  'body-shape',
  'content-type',
  'json-charset',
];
export const pathMutants = [
  'not-a-uuid',
  '%00',
  '%ZZ',
  '%F0%9F',
  'x'.repeat(3000),
  '..%2F..%2Fv1%2Fevents',
  new Rng(0x13f022 ^ 0xabcdef).uuid().toUpperCase(),
];
export const queryMutants = [
  'limit=-1',
  'limit=abc',
  'limit=1e400',
  'limit=1&limit=2',
  'cursor=%00',
  `cursor=${'c'.repeat(8000)}`,
  'cursor[a][b]=1',
  't=%ZZ',
  'to=%ED%A0%80',
  `to=${'%F0%9F%9A%80'.repeat(50)}`,
  'status=live&status=%00',
];
