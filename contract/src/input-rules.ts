/**
 * Rules every input obeys, whatever the route or message (JSON bodies, query values, headers, live
 * messages): checked once, by the server's one input step and the live gateway's message parser.
 *
 * - No string (value or object key) contains U+0000 (PostgreSQL text cannot hold it) or a lone UTF-16
 *   surrogate (it has no UTF-8 form).
 * - JSON nests at most `maxInputDepth` levels of objects and arrays.
 */
export const maxInputDepth = 32;

export interface InputProblem {
  /** Where, as `body.metadata.a.0`, `query.cursor`, `headers.idempotency-key`. */
  path: string;
  code: 'invalid_text' | 'too_deep';
  message: string;
}

// A high surrogate not followed by a low one, or a low one not preceded by a high one.
const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why a string cannot be stored, or null when it can. */
export function unstorableText(value: string): string | null {
  if (value.includes('\u0000')) return 'Must not contain NUL (U+0000) characters';
  if (loneSurrogate.test(value)) return 'Must not contain unpaired UTF-16 surrogates';
  return null;
}

/**
 * The first rule `value` breaks, with its path below `root`, or null. Never recurses deeper than
 * `maxInputDepth` levels, so a hostile nesting cannot exhaust the stack.
 */
export function findInputProblem(value: unknown, root: string): InputProblem | null {
  return walk(value, root, 0);
}

function walk(value: unknown, path: string, depth: number): InputProblem | null {
  if (typeof value === 'string') {
    const message = unstorableText(value);
    return message ? { path, code: 'invalid_text', message } : null;
  }
  if (value === null || typeof value !== 'object') return null;
  if (depth >= maxInputDepth) {
    return { path, code: 'too_deep', message: `Nested deeper than ${maxInputDepth} levels of objects and arrays` };
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = walk(value[i], `${path}.${i}`, depth + 1);
      if (found) return found;
    }
    return null;
  }
  for (const [key, child] of Object.entries(value)) {
    const keyMessage = unstorableText(key);
    if (keyMessage) return { path: `${path}.${printableKey(key)}`, code: 'invalid_text', message: `Key: ${keyMessage}` };
    const found = walk(child, `${path}.${key}`, depth + 1);
    if (found) return found;
  }
  return null;
}

/** A key shown in a path without the characters that made it invalid. */
function printableKey(key: string): string {
  return JSON.stringify(key).slice(1, -1);
}
