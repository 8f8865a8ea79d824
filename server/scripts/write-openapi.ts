// Regenerates docs/openapi.json from the contract: `pnpm openapi`.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildOpenApiDocument } from '../src/docs/openapi';

const target = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../docs/openapi.json');
writeFileSync(target, `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`);
console.log(`wrote ${target}`);
