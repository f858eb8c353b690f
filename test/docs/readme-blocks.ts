/**
 * The README's runnable shell blocks: each ```sh block right after a `<!-- runnable -->`
 * line. A block is cut into steps: a step is its commands (with their `\` continuations
 * and the explanatory comments before them) and the `# => ` lines after them, its expected
 * output (stdout, `...` standing for any text).
 */

export const RUNNABLE_MARK = '<!-- runnable -->';

export interface Step {
  /** The step's lines as written (comments included), without its expected output. */
  script: string;
  /** The expected output's lines (after `# => `); empty when the README shows none. */
  expected: string[];
}

/** The marked blocks' text, in document order. */
export function runnableBlocks(readme: string): string[] {
  const blocks: string[] = [];
  const pattern = new RegExp(
    `^${RUNNABLE_MARK}\\n\`\`\`(?:sh|bash)\\n([\\s\\S]*?)\\n\`\`\`$`,
    'gm',
  );
  for (const match of readme.matchAll(pattern)) blocks.push(match[1]);
  return blocks;
}

/** How many `<!-- runnable -->` marks the README has (each must be followed by a block). */
export function runnableMarks(readme: string): number {
  return readme.split('\n').filter((line) => line.trim() === RUNNABLE_MARK).length;
}

/** A block's steps, in order. */
export function stepsOf(block: string): Step[] {
  const steps: Step[] = [];
  let lines: string[] = [];
  let expected: string[] = [];
  let hasCommand = false;
  const close = () => {
    if (hasCommand) steps.push({ script: lines.join('\n'), expected });
    lines = [];
    expected = [];
    hasCommand = false;
  };
  for (const line of block.split('\n')) {
    if (line.startsWith('# => ')) {
      expected.push(line.slice('# => '.length));
      continue;
    }
    // A command or comment after expected output, or after a blank line, starts a step.
    if (expected.length > 0 || (line.trim() === '' && hasCommand)) close();
    if (line.trim() === '') continue;
    lines.push(line);
    if (!line.trimStart().startsWith('#')) hasCommand = true;
  }
  close();
  return steps;
}

/** An expected output as a pattern: its text exactly, each `...` any text. */
export function outputPattern(expected: string[]): RegExp {
  const escaped = expected
    .join('\n')
    .split('...')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${escaped.join('[\\s\\S]*')}$`);
}
