// The repository's source tree as the architecture tests read it: its files, their text, their code lines.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

export const ROOT = path.join(__dirname, '../..');

/** Every .ts/.tsx file (no .d.ts) under the given repo folders, repo-relative with forward slashes, sorted. */
export function sourceFiles(...dirs: string[]): string[] {
  const out: string[] = [];
  const walk = (abs: string): void => {
    for (const name of readdirSync(abs)) {
      const child = path.join(abs, name);
      if (statSync(child).isDirectory()) walk(child);
      else if (/\.tsx?$/.test(name) && !name.endsWith('.d.ts')) out.push(path.relative(ROOT, child));
    }
  };
  for (const dir of dirs) walk(path.join(ROOT, dir));
  return out.map((f) => f.split(path.sep).join('/')).sort();
}

/** A repo file's text. */
export const read = (file: string): string => readFileSync(path.join(ROOT, file), 'utf8');

/** Whether a line is a comment line (a comment may name what the code must not do). */
export const isCommentLine = (line: string): boolean => /^\s*(\/\/|\/\*|\*)/.test(line);

/** The code of a file without its comment lines. */
export const code = (file: string): string =>
  read(file)
    .split('\n')
    .filter((line) => !isCommentLine(line))
    .join('\n');
