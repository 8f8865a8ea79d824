/** This package's version, sent in User-Agent (kept equal to package.json by `pnpm release:version`; a test checks). */
export const VERSION = '1.0.0';
