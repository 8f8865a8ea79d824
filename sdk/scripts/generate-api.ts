/**
 * Writes src/generated/api.ts from the contract: every route as plain data (method, path, path
 * parameters, params kind, cursor items key) under its SDK method name, and as plain TypeScript types
 * (positional path ids, the params object, options; the success body), zod schemas resolved to object
 * types, plus every type the contract exports, expanded the same way. Names and shapes come from the
 * verb table in contract/src/sdk-routes.ts, which the repository's codemod reads too.
 *
 * Why: the published SDK carries no zod schema types and no ts-rest client types in its
 * declarations, so a consumer's strict `tsc` checks a few hundred lines of interfaces instead of the
 * whole contract, and the browser bundle carries a route table instead of the contract's schemas.
 *
 *   pnpm --filter @gathercast/sdk generate          # rewrite
 *   pnpm --filter @gathercast/sdk generate --check  # exit 1 when the file is stale (a test runs this)
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { contract, errorCodes, sdkRoutes, webhookEventTypes } from '@gathercast/contract';
import ts from 'typescript';


const sdkDir = path.resolve(import.meta.dirname, '..');
const outFile = path.join(sdkDir, 'src/generated/api.ts');
const probeFile = path.join(sdkDir, 'scripts/.api-probe.ts');

type AnyRoute = {
  method: string;
  path: string;
  summary?: string;
  description?: string;
  pathParams?: unknown;
  query?: unknown;
  body?: unknown;
  responses: Record<number, unknown>;
};
const isZod = (schema: unknown) => typeof schema === 'object' && schema !== null && '_def' in schema;
const successCodes = (route: AnyRoute) =>
  Object.keys(route.responses)
    .map(Number)
    .filter((status) => status >= 200 && status < 400);

const groups = Object.entries(contract as unknown as Record<string, Record<string, AnyRoute>>);
/** Every route's SDK method: name, positional path parameters, params object (the verb table). */
const table = sdkRoutes(contract);

// 1. A probe file naming, as type aliases, every type the contract exports and every route's parts.
const probe: string[] = [
  "import type * as C from '@gathercast/contract';",
  "import type { z } from 'zod';",
  'type In<S> = S extends z.ZodTypeAny ? z.input<S> : never;',
  'type Out<S> = S extends z.ZodTypeAny ? z.output<S> : void;',
];
for (const [group, members] of groups)
  for (const [name, route] of Object.entries(members)) {
    const ref = `C.Contract['${group}']['${name}']`;
    if (isZod(route.pathParams)) probe.push(`export type P__${group}__${name} = In<${ref}['pathParams']>;`);
    if (isZod(route.query)) probe.push(`export type Q__${group}__${name} = In<${ref}['query']>;`);
    if (isZod(route.body)) probe.push(`export type B__${group}__${name} = In<${ref}['body']>;`);
    const codes = successCodes(route);
    probe.push(
      `export type R__${group}__${name} = ${codes.map((code) => `Out<${ref}['responses'][${code}]>`).join(' | ') || 'void'};`,
    );
  }
writeFileSync(probeFile, `${probe.join('\n')}\n`);

const program = ts.createProgram([probeFile], {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  strict: true,
  skipLibCheck: true,
  noEmit: true,
  types: [],
});
const checker = program.getTypeChecker();
const flags =
  ts.TypeFormatFlags.NoTruncation |
  ts.TypeFormatFlags.InTypeAlias |
  ts.TypeFormatFlags.UseSingleQuotesForStringLiteralType;
/** Names of zod's own generics, which the printer keeps for some types (`.passthrough()` objects). */
const zodNames = /\b(Zod[A-Za-z]*|objectOutputType|objectInputType|objectUtil|baseObjectOutputType)\b/;
const print = (type: ts.Type): string => {
  const text = checker.typeToString(type, undefined, flags);
  return zodNames.test(text) ? expand(type) : text;
};

/** Writes a type out structurally, member by member, when the printer would name one of zod's generics. */
function expand(type: ts.Type): string {
  if (type.isUnion()) return type.types.map((t) => `(${print(t)})`).join(' | ');
  if (type.isIntersection()) return type.types.map((t) => `(${print(t)})`).join(' & ');
  if (checker.isArrayType(type))
    return `(${print(checker.getTypeArguments(type as ts.TypeReference)[0]!)})[]`;
  const members = checker.getPropertiesOfType(type).map((property) => {
    const optional = property.flags & ts.SymbolFlags.Optional ? '?' : '';
    return `${property.name}${optional}: ${print(checker.getTypeOfSymbol(property))};`;
  });
  const index = checker.getIndexInfoOfType(type, ts.IndexKind.String);
  if (index) members.push(`[k: string]: ${print(index.type)};`);
  return `{ ${members.join(' ')} }`;
}

/** An interface or intersection written out as one object type, so no name outside this file is needed. */
function flatten(type: ts.Type): string {
  const composite =
    type.flags & ts.TypeFlags.Intersection ||
    (type.flags & ts.TypeFlags.Object &&
      (type as ts.ObjectType).objectFlags & (ts.ObjectFlags.Interface | ts.ObjectFlags.Reference));
  if (!composite) return print(type);
  const members = checker.getPropertiesOfType(type).map((property) => {
    const optional = property.flags & ts.SymbolFlags.Optional ? '?' : '';
    const doc = ts.displayPartsToString(property.getDocumentationComment(checker));
    const propertyType = checker.getTypeOfSymbol(property);
    const text = optional ? print(checker.getNonNullableType(propertyType)) : print(propertyType);
    return `${doc ? `/** ${doc} */\n` : ''}${property.name}${optional}: ${text};`;
  });
  return `{\n${members.join('\n')}\n}`;
}

// 2. The contract's exported types (not its values), expanded.
const probeSource = program.getSourceFile(probeFile)!;
const contractModule = checker.getSymbolAtLocation(
  (probeSource.statements[0] as ts.ImportDeclaration).moduleSpecifier,
)!;
/** Types about the contract's own machinery or the server's input checks, not the API's data. */
const serverOnly = new Set([
  'Contract',
  'RouteMetadata',
  'AccessPolicy',
  'InputProblem',
  'WebhookEventSchemaMatchesTypes',
]);
const named: { name: string; text: string; doc: string }[] = [];
for (const symbol of checker.getExportsOfModule(contractModule)) {
  const declaration = symbol.declarations?.[0];
  if (!declaration || !(ts.isTypeAliasDeclaration(declaration) || ts.isInterfaceDeclaration(declaration)))
    continue;
  if (declaration.typeParameters || serverOnly.has(symbol.name)) continue;
  const text = flatten(checker.getDeclaredTypeOfSymbol(symbol));
  if (/Zod|typeof |AppRoute|ContractNoBody/.test(text)) continue;
  const doc = ts.displayPartsToString(symbol.getDocumentationComment(checker));
  named.push({ name: symbol.name, text, doc });
}
named.sort((a, b) => a.name.localeCompare(b.name));

/** Object types the contract names are written by name wherever the same structure appears. */
const byLength = named.filter((n) => n.text.startsWith('{')).sort((a, b) => b.text.length - a.text.length);
function withNames(text: string, self?: string): string {
  let out = text;
  for (const { name, text: expansion } of byLength) if (name !== self) out = out.split(expansion).join(name);
  return out;
}

const aliasText = (alias: string) => {
  const symbol = checker
    .getExportsOfModule(checker.getSymbolAtLocation(probeSource)!)
    .find((s) => s.name === alias);
  if (!symbol) return undefined;
  const type = checker.getDeclaredTypeOfSymbol(symbol);
  const required = type.getProperties().some((p) => !(p.flags & ts.SymbolFlags.Optional));
  return { text: withNames(print(type)), required };
};

// 3. The file.
const header = `// Generated by scripts/generate-api.ts from the contract: do not edit. \`pnpm --filter @gathercast/sdk generate\`.
import type { APIPromise, PagePromise } from '../response';
import type { RawAnswer, RequestOptions } from '../core';

/** The body of one webhook event type, e.g. \`WebhookEventOf<'participant.joined'>\`. */
export type WebhookEventOf<T extends WebhookEventType> = Extract<WebhookEvent, { type: T }>;
`;
const lines: string[] = [header];
for (const { name, text, doc } of named) {
  if (doc) lines.push(`/** ${doc.replace(/\*\//g, '*\\/').replace(/\n/g, '\n * ')} */`);
  lines.push(`export type ${name} = ${withNames(text, name)};`);
}
lines.push('');

const routeTable: Record<string, Record<string, Record<string, unknown>>> = {};
const resourceNames: string[] = [];
const contractRoutes = new Map(
  groups.flatMap(([group, members]) =>
    Object.entries(members).map(([name, route]) => [`${group}.${name}`, route]),
  ),
);
for (const group of [...new Set(table.map((r) => r.group))]) {
  const shipped = table.filter((r) => r.group === group && !r.excluded);
  if (shipped.length === 0) continue;
  const typeName = `${group[0]!.toUpperCase()}${group.slice(1)}Resource`;
  resourceNames.push(`  ${group}: ${typeName};`);
  routeTable[group] = {};
  lines.push(`export interface ${typeName} {`);
  for (const r of shipped) {
    const route = contractRoutes.get(`${r.group}.${r.name}`)!;
    routeTable[group]![r.sdkName] = {
      method: r.method,
      path: r.path,
      ...(r.pathParams.length ? { params: r.pathParams } : {}),
      ...(r.input ? { input: r.input } : {}),
      ...(r.items ? { items: r.items } : {}),
    };
    const input = r.input && aliasText(`${r.input === 'body' ? 'B' : 'Q'}__${group}__${r.name}`);
    const query = r.extraQuery ? aliasText(`Q__${group}__${r.name}`) : undefined;
    const args = [
      ...r.labels.map((label) => `${label}: string`),
      input && `params${input.required ? '' : '?'}: ${input.text}`,
      `options?: RequestOptions${query ? ` & { query${query.required ? '' : '?'}: ${query.text} }` : ''}`,
    ].filter(Boolean);
    const result = aliasText(`R__${group}__${r.name}`)!.text;
    const returned = r.items ? `PagePromise<${result}>` : `APIPromise<${result}>`;
    const doc = [route.summary, route.description].filter(Boolean).join('\n\n');
    const docLine = `\`${route.method} ${route.path}\``;
    lines.push(
      `  /** ${doc ? `${doc.replace(/\*\//g, '*\\/').replace(/\n/g, '\n   * ')}\n   *\n   * ` : ''}${docLine} */`,
    );
    lines.push(`  ${r.sdkName}(${args.join(', ')}): ${returned};`);
  }
  lines.push('}', '');
}
lines.push(
  '/** Every resource of the API, by name. */',
  'export interface Resources {',
  ...resourceNames,
  '}',
  '',
  '/** Each route answering the final `{ status, body, headers }` as the server sent it. */',
  'export type RawResources = {',
  '  [G in keyof Resources]: {',
  '    [M in keyof Resources[G]]: Resources[G][M] extends (...args: infer A) => unknown ? (...args: A) => Promise<RawAnswer> : never;',
  '  };',
  '};',
  '',
  '/** What the SDK needs of each route to call it: method, path, and for a cursor list the key of its items. */',
  `export const routes = ${JSON.stringify(routeTable, null, 2)} as const;`,
  '',
  '/** Every stable problem `code` the API answers with. */',
  `export const errorCodes = ${JSON.stringify(errorCodes)} as const;`,
  '',
  '/** Every webhook event type. */',
  `export const webhookEventTypes = ${JSON.stringify(webhookEventTypes)} as const;`,
  '',
);
rmSync(probeFile, { force: true });

/** The repository's formatter decides the layout, so the file reads like the rest of the code. */
const output = execFileSync(
  path.join(sdkDir, '../node_modules/.bin/biome'),
  ['format', `--stdin-file-path=${outFile}`],
  {
    // zod's empty object (`z.object({})`) accepts any object: written as such rather than as `{}`.
    input: lines.join('\n').replace(/(?<=[:|(<] ?)\{\}(?= ?[|;)>[])/g, 'Record<string, unknown>'),
    encoding: 'utf8',
    stdio: ['pipe', 'pipe', 'ignore'],
    cwd: path.join(sdkDir, '..'),
  },
);
if (process.argv.includes('--check')) {
  const current = (() => {
    try {
      return readFileSync(outFile, 'utf8');
    } catch {
      return '';
    }
  })();
  if (current !== output) {
    console.error(
      `${path.relative(process.cwd(), outFile)} is stale: run \`pnpm --filter @gathercast/sdk generate\``,
    );
    process.exit(1);
  }
} else writeFileSync(outFile, output);
