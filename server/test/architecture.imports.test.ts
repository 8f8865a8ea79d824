import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The server's one structural rule: imports point down (docs/architecture.md).
 *
 *   composition   main.ts, server.ts, app/        assembles everything
 *   domains       accounts/ … webhooks/           the product; may use each other and everything below
 *   http          http/, docs/                    middleware and rendering, the API reference site and
 *                                                 OpenAPI document; knows no domain
 *   shared        lib/, db/, email/               errors, context, pool, ORM setup, mail
 *   base          config.ts, logger.ts            read by all
 *
 * Also: no file imports itself back through a chain (no import cycles, type-only imports included).
 */
const src = path.resolve(__dirname, '../src');

const layerRank = { base: 0, shared: 1, http: 2, domain: 3, composition: 4 } as const;
type Layer = keyof typeof layerRank;

function layerOf(file: string): Layer {
  const rel = path.relative(src, file).split(path.sep);
  if (rel.length === 1) {
    if (['main.ts', 'server.ts', 'types.d.ts'].includes(rel[0])) return 'composition';
    return 'base';
  }
  const top = rel[0];
  if (top === 'app') return 'composition';
  if (top === 'http' || top === 'docs') return 'http';
  if (['lib', 'db', 'email'].includes(top)) return 'shared';
  return 'domain';
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return name.endsWith('.ts') ? [full] : [];
  });
}

const importPattern = /(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+['"](\.{1,2}\/[^'"]+)['"]|import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;

function resolveImport(from: string, spec: string): string | undefined {
  const base = path.resolve(path.dirname(from), spec.replace(/\.js$/, ''));
  return [`${base}.ts`, path.join(base, 'index.ts'), base].find((f) => existsSync(f) && statSync(f).isFile());
}

function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(src)) {
    const text = readFileSync(file, 'utf8');
    const targets: string[] = [];
    for (const m of text.matchAll(importPattern)) {
      const target = resolveImport(file, m[1] ?? m[2]);
      if (target?.startsWith(src)) targets.push(target);
    }
    graph.set(file, targets);
  }
  return graph;
}

const rel = (f: string) => path.relative(src, f);

/** Every import that goes up a layer. */
function violations(graph: Map<string, string[]>): string[] {
  const out: string[] = [];
  for (const [from, targets] of graph) {
    for (const to of targets) {
      const [a, b] = [layerOf(from), layerOf(to)];
      if (layerRank[b] > layerRank[a]) out.push(`${rel(from)} (${a}) imports ${rel(to)} (${b})`);
    }
  }
  return out;
}

/** Each import cycle once, as the chain of files that closes it. */
function cycles(graph: Map<string, string[]>): string[] {
  const found: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (file: string) => {
    state.set(file, 'open');
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === 'open') found.push([...stack.slice(stack.indexOf(next)), next].map(rel).join(' → '));
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(file, 'done');
  };
  for (const file of graph.keys()) if (!state.has(file)) visit(file);
  return found;
}

describe('server import graph', () => {
  const graph = importGraph();

  it('reads the whole source tree', () => {
    expect(graph.size).toBeGreaterThan(100);
    expect(graph.get(path.join(src, 'server.ts'))?.length).toBeGreaterThan(5);
  });

  it('has every import pointing down the layers', () => {
    expect(violations(graph)).toEqual([]);
  });

  it('has no import cycles', () => {
    expect(cycles(graph)).toEqual([]);
  });

  it('catches an upward import and a cycle when one is written', () => {
    const f = (p: string) => path.join(src, p);
    const broken = new Map([
      [f('lib/problem.ts'), [f('http/problem.ts')]],
      [f('http/problem.ts'), [f('lib/problem.ts')]],
      [f('db/orm.ts'), [f('events/entities.ts')]],
    ]);
    expect(violations(broken)).toEqual([
      'lib/problem.ts (shared) imports http/problem.ts (http)',
      'db/orm.ts (shared) imports events/entities.ts (domain)',
    ]);
    expect(cycles(broken)).toEqual(['lib/problem.ts → http/problem.ts → lib/problem.ts']);
  });
});
