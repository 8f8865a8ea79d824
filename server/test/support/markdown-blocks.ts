import { readFileSync } from 'node:fs';
import path from 'node:path';

export interface CodeBlock {
  /** The `## ` heading the block sits under. */
  section: string;
  lang: string;
  code: string;
}

export const repoRoot = path.resolve(__dirname, '../../..');

/** The fenced code blocks of a Markdown file of the repository, in order, with their section. */
export function codeBlocks(file: string): CodeBlock[] {
  const blocks: CodeBlock[] = [];
  let section = '';
  let open: CodeBlock | undefined;
  for (const line of readFileSync(path.join(repoRoot, file), 'utf8').split('\n')) {
    if (open) {
      if (line.startsWith('```')) {
        blocks.push(open);
        open = undefined;
      } else open.code += `${line}\n`;
    } else if (line.startsWith('```')) open = { section, lang: line.slice(3).trim(), code: '' };
    else if (line.startsWith('## ')) section = line.slice(3).trim();
  }
  return blocks;
}
