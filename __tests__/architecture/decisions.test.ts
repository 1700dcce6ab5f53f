// The decision records (docs/decisions/*.md) stay short and true: each record has its status and names the tests
// that keep it, every one of which exists; the index lists every topic file; all of them together stay within 400
// lines of at most 120 characters, so a newcomer can read them in one sitting.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';

const root = path.join(__dirname, '..', '..');
const folder = path.join(root, 'docs', 'decisions');
const MAX_LINES = 400;
/** A line's width, so the count of lines means something (headings and "Kept by" lines may run on). */
const MAX_WIDTH = 120;

interface DecisionRecord {
  file: string;
  title: string;
  lines: string[];
}

/** The records of a topic file: each `## ` heading with the lines up to the next one. */
function recordsOf(file: string, text: string): DecisionRecord[] {
  const records: DecisionRecord[] = [];
  for (const line of text.split('\n')) {
    if (line.startsWith('## ')) records.push({ file, title: line.slice(3).trim(), lines: [] });
    else records.at(-1)?.lines.push(line);
  }
  return records;
}

/** The paths a `Kept by:` line names, each in backticks. */
function keptBy(lines: string[]): string[] {
  const line = lines.find((l) => l.startsWith('Kept by:')) ?? '';
  return [...line.matchAll(/`([^`]+)`/g)].map((m) => m[1] ?? '');
}

/** What is wrong with one record: its status line, its "Kept by" line, and the paths it names. */
function problemsOf(record: DecisionRecord, exists: (p: string) => boolean): string[] {
  const where = `${record.file} "${record.title}"`;
  const problems: string[] = [];
  if (!record.lines.some((l) => /^Status: (proposed|accepted|superseded|deprecated)\b/.test(l)))
    problems.push(`${where} has no "Status: accepted, <date>" line`);
  const paths = keptBy(record.lines);
  if (paths.length === 0) problems.push(`${where} names no test on a "Kept by:" line`);
  for (const p of paths) if (!exists(p)) problems.push(`${where} is kept by ${p}, which does not exist`);
  return problems;
}

const topicFiles = readdirSync(folder)
  .filter((f) => f.endsWith('.md') && f !== 'README.md')
  .sort();
const texts = new Map(topicFiles.map((f) => [f, readFileSync(path.join(folder, f), 'utf8')]));
const records = topicFiles.flatMap((f) => recordsOf(f, texts.get(f) ?? ''));
const exists = (p: string) => existsSync(path.join(root, p));

describe('the decision records', () => {
  it('each have a status and name the tests that keep them, all of which exist', () => {
    // A floor, so a parser that finds no records cannot pass; the records themselves are counted in lines.
    expect(records.length).toBeGreaterThanOrEqual(25);
    expect(records.flatMap((record) => problemsOf(record, exists))).toEqual([]);
  });

  it('are listed in the index, topic by topic', () => {
    const index = readFileSync(path.join(folder, 'README.md'), 'utf8');
    expect(topicFiles.filter((f) => !index.includes(`(${f})`))).toEqual([]);
  });

  it(`stay within ${MAX_LINES} lines in all, the index included`, () => {
    const lines = [...texts.values(), readFileSync(path.join(folder, 'README.md'), 'utf8')]
      .map((text) => text.trimEnd().split('\n').length)
      .reduce((sum, n) => sum + n, 0);
    expect(lines).toBeLessThanOrEqual(MAX_LINES);
  });

  it(`keep their words within ${MAX_WIDTH} characters a line`, () => {
    const wide = [...texts.entries()].flatMap(([file, text]) =>
      text
        .split('\n')
        .filter((line) => line.length > MAX_WIDTH && !line.startsWith('## ') && !line.startsWith('Kept by:'))
        .map((line) => `${file}: ${line.slice(0, 40)}…`),
    );
    expect(wide).toEqual([]);
  });
});

describe('the check of a record', () => {
  const record = (lines: string[]): DecisionRecord => ({ file: 'x.md', title: 'A rule', lines });

  it('finds a missing status, a missing "Kept by" and a path that does not exist', () => {
    expect(problemsOf(record(['The choice.']), () => true)).toEqual([
      'x.md "A rule" has no "Status: accepted, <date>" line',
      'x.md "A rule" names no test on a "Kept by:" line',
    ]);
    expect(
      problemsOf(record(['Status: accepted, 2026-11-27', 'Kept by: `a.test.ts`, `gone.test.ts`']), (p) =>
        p.startsWith('a'),
      ),
    ).toEqual(['x.md "A rule" is kept by gone.test.ts, which does not exist']);
  });

  it('passes a record in the shape of docs/decisions/README.md', () => {
    expect(
      problemsOf(record(['', 'Status: accepted, 2026-11-27', 'Why.', 'Kept by: `a.test.ts`']), () => true),
    ).toEqual([]);
  });
});
