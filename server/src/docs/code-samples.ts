import { contract, type SdkRoute, sdkRoutes } from '@gathercast/contract';

/**
 * Code samples for the reference (Redoc's `x-codeSamples`): each operation as a curl command and as an
 * SDK call in the SDK's shape (path ids, then the body, or a list's query, as an object). The SDK
 * method comes from the verb table (contract/src/sdk-routes.ts), found by method and path; the body
 * is the operation's example when the document has one, else its required fields with sample values.
 */

type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  enum?: unknown[];
  example?: unknown;
  examples?: unknown[];
  default?: unknown;
  format?: string;
  oneOf?: Schema[];
  anyOf?: Schema[];
  allOf?: Schema[];
  $ref?: string;
  minimum?: number;
};
type Operation = {
  operationId?: string;
  security?: Record<string, string[]>[];
  parameters?: { name?: string; in?: string; required?: boolean; $ref?: string }[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: Schema; example?: unknown; examples?: Record<string, { value?: unknown }> }> };
  'x-codeSamples'?: unknown;
};

const methods = ['get', 'post', 'put', 'patch', 'delete'];

/** "post /v1/events/{id}/publish" → the SDK method (`events.publish`) and its path ids, from the verb table. */
function sdkMethods(): Map<string, SdkRoute> {
  const map = new Map<string, SdkRoute>();
  for (const route of sdkRoutes(contract)) {
    if (!route.excluded) map.set(`${route.method.toLowerCase()} ${route.path.replace(/:(\w+)/g, '{$1}')}`, route);
  }
  return map;
}

const byName: Record<string, unknown> = {
  email: 'ada@example.com',
  password: 'correct horse battery',
  name: 'Ada Lovelace',
  title: 'Launch day',
  type: 'webinar',
  url: 'https://example.com/webhooks/gathercast',
  text: 'When do the breakouts start?',
  token: 'gci_…',
  slug: 'acme',
  issuer: 'https://partner.example',
  jwksUrl: 'https://partner.example/.well-known/jwks.json',
  modality: 'broadcast',
  role: 'participant',
  externalSub: 'partner-user-42',
  seconds: 300,
};

function sample(schema: Schema | undefined, name: string, resolve: (ref: string) => Schema | undefined, depth = 0): unknown {
  if (!schema || depth > 4) return undefined;
  if (schema.$ref) return sample(resolve(schema.$ref), name, resolve, depth + 1);
  if (schema.example !== undefined) return schema.example;
  if (schema.examples?.length) return schema.examples[0];
  const variant = schema.oneOf?.[0] ?? schema.anyOf?.[0] ?? schema.allOf?.[0];
  if (variant) return sample(variant, name, resolve, depth + 1);
  if (name in byName) return byName[name];
  if (schema.enum?.length) return schema.enum[0];
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  if (type === 'object' || schema.properties) {
    const out: Record<string, unknown> = {};
    // Required fields; an object with none shows its well-known optional ones (a key's `name`, say).
    const keys = schema.required?.length ? schema.required : Object.keys(schema.properties ?? {}).filter((k) => k in byName);
    for (const key of keys) out[key] = sample(schema.properties?.[key], key, resolve, depth + 1);
    return out;
  }
  if (type === 'array') {
    const item = sample(schema.items, name, resolve, depth + 1);
    return item === undefined ? [] : [item];
  }
  if (type === 'integer' || type === 'number') return schema.minimum ?? 1;
  if (type === 'boolean') return true;
  if (schema.format === 'uuid') return '3f1c0a9e-5b7d-4e2f-8a6c-1d2e3f4a5b6c';
  if (schema.format === 'date-time') return '2026-12-01T17:00:00Z';
  return '…';
}

function bodyOf(op: Operation, resolve: (ref: string) => Schema | undefined): unknown {
  const json = op.requestBody?.content?.['application/json'];
  if (!json) return undefined;
  if (json.example !== undefined) return json.example;
  const first = Object.values(json.examples ?? {})[0]?.value;
  if (first !== undefined) return first;
  return sample(json.schema, '', resolve);
}

function credential(op: Operation): { header?: string; sdk?: string } {
  const schemes = new Set((op.security ?? []).flatMap((s) => Object.keys(s)));
  if (schemes.has('apiKey')) return { header: 'x-api-key: $GATHERCAST_API_KEY', sdk: 'apiKey: process.env.GATHERCAST_API_KEY' };
  if (schemes.has('bearerSession')) return { header: 'authorization: Bearer $GATHERCAST_SESSION', sdk: 'sessionToken: process.env.GATHERCAST_SESSION' };
  if (schemes.has('platformKey')) return { header: 'x-platform-key: $GATHERCAST_PLATFORM_KEY', sdk: "headers: { 'x-platform-key': process.env.GATHERCAST_PLATFORM_KEY! }" };
  return {};
}

const indent = (text: string, by: string) => text.replace(/\n/g, `\n${by}`);

/** A JSON value written as a TypeScript literal: bare keys where possible, single-quoted strings. */
const tsLiteral = (value: unknown) =>
  JSON.stringify(value, null, 2)
    .replace(/"([A-Za-z_$][\w$]*)":/g, '$1:')
    .replace(/"((?:[^"\\']|\\.)*)"/g, "'$1'");

/** Adds `x-codeSamples` (curl, TypeScript SDK) to every operation that has none. Mutates `document`. */
export function addCodeSamples(document: Record<string, unknown>, baseUrl: string): void {
  const sdk = sdkMethods();
  const components = (document.components ?? {}) as { schemas?: Record<string, Schema> };
  const resolve = (ref: string) => components.schemas?.[ref.replace('#/components/schemas/', '')];
  for (const [path, item] of Object.entries((document.paths ?? {}) as Record<string, Record<string, Operation>>)) {
    for (const method of methods) {
      const op = item[method];
      if (!op || op['x-codeSamples']) continue;
      const body = bodyOf(op, resolve);
      const auth = credential(op);
      const curl = [`curl ${method === 'get' ? '' : `-X ${method.toUpperCase()} `}'${baseUrl}${path}'`];
      if (auth.header) curl.push(`-H "${auth.header}"`);
      if (body !== undefined) {
        const json = JSON.stringify(body);
        const shown = json.length > 60 ? indent(JSON.stringify(body, null, 2), '  ') : json;
        curl.push(`-H 'content-type: application/json'`, `-d '${shown.replace(/'/g, "'\\''")}'`);
      }
      const samples = [{ lang: 'Shell', label: 'curl', source: curl.join(' \\\n  ') }];
      const route = sdk.get(`${method} ${path}`);
      if (route) {
        const args = [
          ...route.labels,
          route.input === 'body' && body !== undefined ? tsLiteral(body) : '',
        ].filter(Boolean);
        const options = [`baseUrl: '${baseUrl}'`, auth.sdk].filter(Boolean).join(', ');
        const ids = route.labels.map((label) => `const ${label} = '…';\n`).join('');
        samples.push({
          lang: 'TypeScript',
          label: 'SDK',
          source: `import { createClient } from '@gathercast/sdk';\n\nconst gc = createClient({ ${options} });\n${ids}const answer = await gc.${route.group}.${route.sdkName}(${args.join(', ')});`,
        });
      }
      op['x-codeSamples'] = samples;
    }
  }
}
