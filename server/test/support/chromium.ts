import { existsSync } from 'node:fs';
import { aptInstall } from './commands';

/**
 * Debian's Chromium for browser tests (playwright-core drives it; no browser download). Installed with
 * apt-get when missing, which needs root and the Debian archive; CHROMIUM_PATH points elsewhere.
 */
export async function chromiumPath(): Promise<string> {
  const configured = process.env.CHROMIUM_PATH;
  if (configured) return configured;
  const candidates = ['/usr/bin/chromium', '/usr/bin/chromium-browser'];
  const found = candidates.find((p) => existsSync(p));
  if (found) return found;
  const install = await aptInstall(['chromium']);
  if (install.status !== 0 || !existsSync(candidates[0]!)) {
    throw new Error(
      `Chromium is missing and \`apt-get install chromium\` failed: install it, or set CHROMIUM_PATH\n${install.stderr}`,
    );
  }
  return candidates[0]!;
}
