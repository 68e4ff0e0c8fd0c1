// The fenced blocks of a documentation page, read as the page writes them, so that a test that
// runs a page's commands runs what a reader copies: an edit to the page is an edit to the test.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { REPO } from "./paths.js";

export interface Block {
  /** The word after the opening fence (`sh`, `toml`, `json`), or "" for none. */
  readonly lang: string;
  readonly text: string;
  /** The page's text from the end of the previous block to this block's fence: what the block follows. */
  readonly before: string;
  /** Where the block's fence starts in the page. */
  readonly start: number;
}

/** The page at `path` (relative to the repository) and its fenced blocks, in order. */
export function pageBlocks(path: string): { text: string; blocks: Block[] } {
  const text = readFileSync(join(REPO, path), "utf8");
  const blocks: Block[] = [];
  let last = 0;
  for (const match of text.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)) {
    blocks.push({ lang: match[1]!, text: match[2]!, before: text.slice(last, match.index), start: match.index! });
    last = match.index! + match[0].length;
  }
  return { text, blocks };
}

/** The first block of `lang` ("" for a bare fence) after the first place the page says `after`; throws when the page has none. */
export function blockAfter(page: { text: string; blocks: readonly Block[] }, lang: string, after: string): Block {
  const at = page.text.indexOf(after);
  const found = at < 0 ? undefined : page.blocks.find((block) => block.lang === lang && block.start > at);
  if (found === undefined) throw new Error(`no ${lang || "plain"} block after "${after}"`);
  return found;
}

/** A shell block's commands: its lines without comments, a line ending in `\` joined to the next. */
export function shellCommands(block: string): string[] {
  return block
    .replace(/\\\n\s*/g, "")
    .split("\n")
    .map((line) => line.replace(/(^|\s)#\s.*$/, "").trim())
    .filter((line) => line !== "");
}

/** A transcript block (`$ command` lines, each followed by its output): each command and the output the page shows for it. */
export function transcript(block: string): { command: string; output: string[] }[] {
  const steps: { command: string; output: string[] }[] = [];
  for (const line of block.replace(/\n$/, "").split("\n")) {
    if (line.startsWith("$ ")) steps.push({ command: line.slice(2), output: [] });
    else if (steps.length > 0) steps.at(-1)!.output.push(line);
    else throw new Error(`output before any command: ${line}`);
  }
  return steps;
}
