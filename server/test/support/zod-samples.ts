import type { ZodTypeAny } from 'zod';

/** A small seeded generator (mulberry32): the same seed gives the same inputs on every run. */
export class Rng {
  #state: number;
  constructor(seed: number) {
    this.#state = seed >>> 0;
  }
  next(): number {
    this.#state = (this.#state + 0x6d2b79f5) >>> 0;
    let t = this.#state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  uuid(): string {
    const hex = Array.from({ length: 32 }, () => this.int(0, 15).toString(16)).join('');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
  }
  word(length = this.int(3, 10)): string {
    return Array.from({ length }, () => 'abcdefghijklmnopqrstuvwxyz'[this.int(0, 25)]).join('');
  }
}

interface Def {
  typeName: string;
  [key: string]: unknown;
}
const defOf = (schema: ZodTypeAny) => schema._def as Def;

interface Check {
  kind: string;
  value?: number;
  regex?: RegExp;
}

const regexCandidates = ['abc', 'fuzz-slug', 'a1', 'abc-def-123', 'ABC', 'x.y', '#fff', 'https://example.com/a'];

function sampleString(schema: ZodTypeAny, rng: Rng): string {
  const checks = (defOf(schema).checks ?? []) as Check[];
  const has = (kind: string) => checks.find((c) => c.kind === kind);
  if (has('uuid')) return rng.uuid();
  if (has('email')) return `fuzz-${rng.word()}@example.test`;
  if (has('url')) return `https://example.com/${rng.word()}`;
  if (has('datetime')) return `2027-0${rng.int(1, 9)}-1${rng.int(0, 9)}T1${rng.int(0, 9)}:30:00Z`;
  const min = has('min')?.value ?? has('length')?.value ?? 1;
  const max = Math.min(has('max')?.value ?? has('length')?.value ?? 24, Math.max(min, 24));
  if (has('regex')) {
    const fitting = regexCandidates.find((c) => schema.safeParse(c).success);
    if (fitting) return fitting;
  }
  let text = rng.word(rng.int(min, Math.max(min, max)));
  while (text.length < min) text += 'x';
  return text.slice(0, Math.max(max, min));
}

function sampleNumber(schema: ZodTypeAny, rng: Rng): number {
  const checks = (defOf(schema).checks ?? []) as Check[];
  const min = checks.find((c) => c.kind === 'min')?.value ?? 0;
  const max = checks.find((c) => c.kind === 'max')?.value ?? min + 100;
  return rng.int(Math.ceil(min), Math.floor(Math.min(max, min + 1000)));
}

/** A value the schema most likely accepts (regex-shaped strings may miss: that is one more mutant). */
export function sample(schema: ZodTypeAny, rng: Rng, depth = 0): unknown {
  const def = defOf(schema);
  switch (def.typeName) {
    case 'ZodString':
      return sampleString(schema, rng);
    case 'ZodNumber':
      return sampleNumber(schema, rng);
    case 'ZodBigInt':
      return rng.int(0, 100);
    case 'ZodBoolean':
      return rng.chance(0.5);
    case 'ZodLiteral':
      return def.value;
    case 'ZodEnum':
      return rng.pick(def.values as string[]);
    case 'ZodNativeEnum':
      return rng.pick(Object.values(def.values as object));
    case 'ZodNull':
      return null;
    case 'ZodOptional':
      return depth > 0 && rng.chance(0.25) ? undefined : sample(def.innerType as ZodTypeAny, rng, depth);
    case 'ZodNullable':
      return rng.chance(0.15) ? null : sample(def.innerType as ZodTypeAny, rng, depth);
    case 'ZodDefault':
    case 'ZodCatch':
    case 'ZodReadonly':
      return sample(def.innerType as ZodTypeAny, rng, depth);
    case 'ZodEffects':
      return sample(def.schema as ZodTypeAny, rng, depth);
    case 'ZodBranded':
      return sample(def.type as ZodTypeAny, rng, depth);
    case 'ZodPipeline':
      return sample(def.in as ZodTypeAny, rng, depth);
    case 'ZodLazy':
      return depth > 4 ? null : sample((def.getter as () => ZodTypeAny)(), rng, depth + 1);
    case 'ZodUnion':
      return sample(rng.pick(def.options as ZodTypeAny[]), rng, depth);
    case 'ZodDiscriminatedUnion':
      return sample(rng.pick(def.options as ZodTypeAny[]), rng, depth);
    case 'ZodIntersection':
      return {
        ...(sample(def.left as ZodTypeAny, rng, depth) as object),
        ...(sample(def.right as ZodTypeAny, rng, depth) as object),
      };
    case 'ZodArray': {
      const min = (def.minLength as { value: number } | null)?.value ?? (def.exactLength as { value: number } | null)?.value ?? 0;
      const max = (def.maxLength as { value: number } | null)?.value ?? (def.exactLength as { value: number } | null)?.value ?? 3;
      const length = rng.int(min, Math.min(max, min + 3));
      return Array.from({ length }, () => sample(def.type as ZodTypeAny, rng, depth + 1));
    }
    case 'ZodTuple':
      return (def.items as ZodTypeAny[]).map((item) => sample(item, rng, depth + 1));
    case 'ZodRecord': {
      const out: Record<string, unknown> = {};
      for (let i = rng.int(0, 3); i > 0; i--) out[rng.word()] = sample(def.valueType as ZodTypeAny, rng, depth + 1);
      return out;
    }
    case 'ZodObject': {
      const shape = (def.shape as () => Record<string, ZodTypeAny>)();
      const out: Record<string, unknown> = {};
      for (const [key, field] of Object.entries(shape)) {
        const value = sample(field, rng, depth + 1);
        if (value !== undefined) out[key] = value;
      }
      return out;
    }
    default:
      // ZodUnknown, ZodAny and anything exotic: a small JSON value.
      return rng.pick<unknown>([rng.word(), rng.int(-5, 5), true, { [rng.word()]: rng.word() }, [rng.word()]]);
  }
}

/** Paths of every leaf (string, number, boolean, null) of a JSON value. */
export function leafPaths(value: unknown, path: (string | number)[] = []): (string | number)[][] {
  if (Array.isArray(value)) return value.flatMap((v, i) => leafPaths(v, [...path, i]));
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).flatMap(([k, v]) => leafPaths(v, [...path, k]));
  }
  return [path];
}

export function getAt(value: unknown, path: (string | number)[]): unknown {
  return path.reduce<unknown>((v, key) => (v as Record<string | number, unknown>)?.[key], value);
}

/** A copy of `value` with the leaf at `path` replaced (the root when `path` is empty). */
export function setAt(value: unknown, path: (string | number)[], replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  const copy = structuredClone(value) as Record<string | number, unknown>;
  let parent = copy;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  parent[path[path.length - 1]!] = replacement;
  return copy;
}
