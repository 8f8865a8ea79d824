/**
 * The SDK codemod's reading of an old, ts-rest-shaped argument object (`{ params, query, body,
 * headers }`) and the new call's arguments built from it (scripts/sdk-codemod.mjs). Each function
 * answers undefined (or an error) where the call cannot be converted safely, so it is left for a person.
 */
import ts from 'typescript';

/** The keys of the old argument object. */
export const OLD_KEYS = new Set(['params', 'query', 'body', 'headers', 'extraHeaders']);

/** `a.b` → "a.b"; anything else is parenthesised when it is more than a name or a member access. */
const asReceiver = (text, node) =>
  ts.isIdentifier(node) || ts.isPropertyAccessExpression(node) || ts.isCallExpression(node)
    ? text
    : `(${text})`;

export const propertyName = (p) =>
  p.name && (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name)) ? p.name.text : undefined;

/** The old argument object's parts, or undefined when the object is not one (or cannot be read safely). */
export function oldParts(node, route) {
  if (!node || !ts.isObjectLiteralExpression(node) || node.properties.length === 0) return undefined;
  const parts = {};
  for (const p of node.properties) {
    const name = propertyName(p);
    if (!name || !OLD_KEYS.has(name) || !(ts.isPropertyAssignment(p) || ts.isShorthandPropertyAssignment(p)))
      return undefined;
    parts[name] = ts.isPropertyAssignment(p) ? p.initializer : p.name;
  }
  // A params object whose own fields are all named like the old keys is the new shape (no route has that today).
  const keys = Object.keys(parts);
  if (route.pathParams.length === 0 && route.input && keys.every((k) => route.inputKeys.includes(k)))
    return undefined;
  return parts;
}

/** The positional ids of an old `params` value, or a reason why they cannot be read. */
export function idsOf(params, route, source) {
  if (route.pathParams.length === 0) return { ids: [] };
  if (!params) return { error: 'no params' };
  if (ts.isObjectLiteralExpression(params)) {
    const byName = new Map();
    for (const p of params.properties) {
      if (ts.isSpreadAssignment(p)) return { error: 'a spread in params' };
      const name = propertyName(p);
      if (!name) return { error: 'a computed params key' };
      byName.set(name, ts.isPropertyAssignment(p) ? p.initializer.getText(source) : p.name.text);
    }
    const ids = route.pathParams.map((name) => byName.get(name));
    if (ids.some((id) => id === undefined))
      return { error: `params lacks one of ${route.pathParams.join(', ')}` };
    return { ids };
  }
  const receiver = asReceiver(params.getText(source), params);
  return { ids: route.pathParams.map((name) => `${receiver}.${name}`) };
}

/** The new options argument: the old headers merged into the old options. */
export function optionsText(parts, options, route, source) {
  const extra = [];
  const headers = [parts.headers, parts.extraHeaders].filter(Boolean).map((h) => h.getText(source));
  if (headers.length === 1) extra.push(`headers: ${headers[0]}`);
  if (headers.length === 2) extra.push(`headers: { ...${headers[0]}, ...${headers[1]} }`);
  if (route.extraQuery && parts.query) extra.push(`query: ${parts.query.getText(source)}`);
  if (!options) return extra.length ? `{ ${extra.join(', ')} }` : undefined;
  const text = options.getText(source);
  if (!extra.length) return text;
  if (ts.isObjectLiteralExpression(options)) {
    if (options.properties.some((p) => propertyName(p) === 'headers')) return undefined;
    const inner = options.properties.map((p) => p.getText(source));
    return `{ ${[...inner, ...extra].join(', ')} }`;
  }
  return `{ ...${text}, ${extra.join(', ')} }`;
}
