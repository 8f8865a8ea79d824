#!/usr/bin/env node
/**
 * Converts SDK calls written in the old, ts-rest-shaped form to the SDK's call shape, and renames
 * methods to the verb table's names:
 *
 *   gc.events.get({ params: { id } })                          → gc.events.retrieve(id)
 *   gc.events.update({ params: { id }, body: { title } })       → gc.events.update(id, { title })
 *   gc.events.list({ query: { limit: 5 } }, { timeout: 1000 })   → gc.events.list({ limit: 5 }, { timeout: 1000 })
 *   gc.raw.invites.revoke({ params: { id, inviteId }, headers }) → gc.raw.invites.delete(id, inviteId, { headers })
 *
 * Names, path parameters and params kinds come from the contract (its built dist) through the SDK's
 * verb table (contract/src/sdk-routes.ts), so routes added later are converted too. Idempotent: a call
 * already in the SDK's shape is left as it is. TypeScript/JavaScript files and the ts/js code blocks of
 * Markdown files are converted; what cannot be converted safely is listed (file:line) for a person.
 *
 *   pnpm build && pnpm generate            # the contract's dist and the SDK's table are current
 *   node scripts/sdk-codemod.mjs           # the repository's usual places (see DEFAULT_ROOTS)
 *   node scripts/sdk-codemod.mjs server/test/my.test.ts docs
 *   node scripts/sdk-codemod.mjs --check   # changes nothing; exit 1 when something would change
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';
import { idsOf, OLD_KEYS, oldParts, optionsText, propertyName } from './sdk-codemod-arguments.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DEFAULT_ROOTS = ['server/test', 'sdk/test', 'sdk/README.md', 'examples', 'docs', 'bench', 'README.md'];
const SKIP_DIRS = new Set(['node_modules', 'dist', 'generated', '.git', 'coverage']);
const CODE = /\.(ts|tsx|mts|cts|js|mjs|cjs)$/;

// SDK_CODEMOD_CONTRACT names another build of the contract (its tests read the source through tsx).
const contractEntry = path.resolve(root, process.env.SDK_CODEMOD_CONTRACT ?? 'contract/dist/index.js');
if (!existsSync(contractEntry)) {
  console.error('contract/dist is missing: run `pnpm build` first (the codemod reads the built contract)');
  process.exit(2);
}
const { contract, sdkRoutes } = await import(pathToFileURL(contractEntry).href);
const table = sdkRoutes(contract);

/** group → method name as written → the routes that name may mean (an old contract name, or an SDK name). */
const byGroup = new Map();
for (const route of table) {
  if (!byGroup.has(route.group)) byGroup.set(route.group, { old: new Map(), current: new Map() });
  const names = byGroup.get(route.group);
  names.old.set(route.name, route);
  if (!route.excluded) names.current.set(route.sdkName, route);
}

const args = process.argv.slice(2);
const check = args.includes('--check');
const targets = args.filter((a) => !a.startsWith('--'));
const roots = (targets.length ? targets : DEFAULT_ROOTS).map((p) => path.resolve(root, p)).filter(existsSync);

function* files(entry) {
  if (statSync(entry).isFile()) {
    yield entry;
    return;
  }
  for (const name of readdirSync(entry)) {
    if (SKIP_DIRS.has(name)) continue;
    const full = path.join(entry, name);
    if (statSync(full).isDirectory()) yield* files(full);
    else if (CODE.test(name) || name.endsWith('.md')) yield full;
  }
}

/** One pass over a source: the edits of the outermost convertible calls, and what could not be converted. */
function pass(text, fileName) {
  const kind = /\.[jt]sx$/.test(fileName)
    ? ts.ScriptKind.TSX
    : /\.[cm]?js$/.test(fileName)
      ? ts.ScriptKind.JS
      : ts.ScriptKind.TS;
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, kind);
  const edits = [];
  const problems = [];
  const visit = (node) => {
    const converted = ts.isCallExpression(node) && convert(node);
    if (converted) {
      edits.push(...converted);
      return; // calls inside its arguments are converted in the next pass
    }
    ts.forEachChild(node, visit);
  };
  const report = (node, message) => {
    const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
    problems.push({ line: line + 1, message, text: node.getText(source).split('\n')[0].slice(0, 100) });
  };
  function convert(call) {
    const callee = call.expression;
    if (ts.isElementAccessExpression(callee) && ts.isPropertyAccessExpression(callee.expression)) {
      const group = callee.expression.name.text;
      let first = call.arguments[0];
      while (
        first &&
        (ts.isAsExpression(first) || ts.isParenthesizedExpression(first) || ts.isSatisfiesExpression(first))
      )
        first = first.expression;
      if (
        byGroup.has(group) &&
        first &&
        ts.isObjectLiteralExpression(first) &&
        first.properties.every((p) => OLD_KEYS.has(propertyName(p) ?? ''))
      )
        report(call, `${group}[…] called with the old argument object: convert by hand`);
      return undefined;
    }
    if (!ts.isPropertyAccessExpression(callee) || !ts.isPropertyAccessExpression(callee.expression))
      return undefined;
    const method = callee.name.text;
    const names = byGroup.get(callee.expression.name.text);
    if (!names) return undefined;
    const old = names.old.get(method);
    const current = names.current.get(method);
    if (!old) return undefined;
    const [first, second, ...more] = call.arguments;
    if (
      first &&
      (ts.isAsExpression(first) || ts.isSatisfiesExpression(first)) &&
      oldParts(first.expression, old)
    ) {
      report(call, `${old.group}.${method}: the old argument object under a type assertion: convert by hand`);
      return undefined;
    }
    const parts = oldParts(first, old);
    if (!parts) {
      // Not the old argument object: the new shape, or something to rename only when the name is no SDK name.
      if (current || old.sdkName === method) return undefined;
      if (old.excluded) {
        report(
          call,
          `${old.group}.${method} is not an SDK method (${old.excluded}): call the route without the SDK`,
        );
        return undefined;
      }
      if (call.arguments.length === 0 || (old.pathParams.length === 0 && !first))
        return [{ start: callee.name.getStart(source), end: callee.name.getEnd(), text: old.sdkName }];
      report(call, `${old.group}.${method}: convert by hand to ${old.group}.${old.sdkName}(…)`);
      return undefined;
    }
    if (old.excluded) {
      report(
        call,
        `${old.group}.${method} is not an SDK method (${old.excluded}): call the route without the SDK`,
      );
      return undefined;
    }
    if (more.length) {
      report(call, 'more than two arguments');
      return undefined;
    }
    const { ids, error } = idsOf(parts.params, old, source);
    if (error) {
      report(call, error);
      return undefined;
    }
    const input = old.input ? parts[old.input] : undefined;
    const options = optionsText(parts, second, old, source);
    if (options === undefined && (second || parts.headers || parts.extraHeaders)) {
      report(call, 'headers given both in the arguments and in the options');
      return undefined;
    }
    const list = [...ids];
    if (input) list.push(input.getText(source));
    else if (old.input && options) list.push('undefined');
    if (options) list.push(options);
    const argsStart = first.getStart(source);
    const argsEnd = (second ?? first).getEnd();
    // Arguments laid out one per line stay so (Markdown is not reformatted afterwards).
    const lineStart = text.lastIndexOf('\n', argsStart - 1) + 1;
    const indent = text.slice(lineStart, argsStart);
    const separator = second && /^[ \t]+$/.test(indent) ? `,\n${indent}` : ', ';
    return [
      { start: callee.name.getStart(source), end: callee.name.getEnd(), text: old.sdkName },
      { start: argsStart, end: argsEnd, text: list.join(separator) },
    ];
  }
  visit(source);
  let out = text;
  for (const edit of edits.sort((a, b) => b.start - a.start))
    out = out.slice(0, edit.start) + edit.text + out.slice(edit.end);
  return { out, changed: edits.length > 0, problems };
}

/** Converts a source until nothing changes (nested calls take one pass per level). */
function transform(text, fileName) {
  let current = text;
  let problems = [];
  for (let i = 0; i < 20; i++) {
    const result = pass(current, fileName);
    problems = result.problems;
    if (!result.changed) break;
    current = result.out;
  }
  return { out: current, problems };
}

/** Markdown: the ts/js code blocks only, each as a source of its own. */
function transformMarkdown(text, fileName) {
  const problems = [];
  const out = text.replace(
    /(```(?:ts|typescript|js|javascript|mjs|tsx)[^\n]*\n)([\s\S]*?)(\n[ \t]*```)/g,
    (_, open, body, close) => {
      const offset = text.slice(0, text.indexOf(open + body)).split('\n').length;
      const result = transform(body, fileName);
      problems.push(...result.problems.map((p) => ({ ...p, line: p.line + offset })));
      return open + result.out + close;
    },
  );
  return { out, problems };
}

const changed = [];
const allProblems = [];
const self = fileURLToPath(import.meta.url);
for (const entry of roots)
  for (const file of files(entry)) {
    if (file === self || file.includes(`${path.sep}generated${path.sep}`)) continue;
    const text = readFileSync(file, 'utf8');
    if (!/\.\s*[a-zA-Z]+\s*\(/.test(text)) continue;
    const { out, problems } = file.endsWith('.md') ? transformMarkdown(text, file) : transform(text, file);
    allProblems.push(...problems.map((p) => ({ ...p, file: path.relative(root, file) })));
    if (out !== text) {
      changed.push(file);
      if (!check) writeFileSync(file, out);
    }
  }

const codeChanged = changed.filter((f) => CODE.test(f));
if (!check && codeChanged.length) {
  // The repository's formatter lays the converted calls out (a call may now fit on one line).
  try {
    execFileSync(path.join(root, 'node_modules/.bin/biome'), ['format', '--write', ...codeChanged], {
      cwd: root,
      stdio: 'ignore',
    });
  } catch {
    console.error('biome could not format every converted file: run `pnpm format`');
  }
}
for (const p of allProblems) console.error(`${p.file}:${p.line}: ${p.message}\n    ${p.text}`);
console.log(
  `${check ? 'would convert' : 'converted'} ${changed.length} file(s)${allProblems.length ? `; ${allProblems.length} call(s) to convert by hand (above)` : ''}`,
);
for (const file of changed) console.log(`  ${path.relative(root, file)}`);
if (check && changed.length) process.exit(1);
