import { readRssKiB, type ProcessIdentity } from "./proc-table.js";

/** One measurement of a tree's resident memory. */
export interface TreeMemory {
  /** Sum of VmRSS over the tree's live processes, in KiB (a page shared by two counts twice, as in `ps`). */
  readonly rssKiB: number;
  /** How many live processes were summed. */
  readonly processes: number;
}

/** Sums the resident memory of `members`; one that exits meanwhile counts 0. */
export function measureTree(members: readonly ProcessIdentity[]): TreeMemory {
  let rssKiB = 0;
  let processes = 0;
  for (const member of members) {
    const rss = readRssKiB(member.pid);
    if (rss === undefined) continue;
    rssKiB += rss;
    processes += 1;
  }
  return { rssKiB, processes };
}

interface MemoryWatchOptions {
  /** The tree's live members right now. */
  readonly scan: () => readonly ProcessIdentity[];
  readonly intervalMs: number;
  /** Past this sum (KiB) `onOverCap` is called, once; null: no cap, only samples. */
  readonly capKiB: number | null;
  readonly onSample: (sample: TreeMemory) => void;
  readonly onOverCap: (sample: TreeMemory) => void;
}

/**
 * Measures the tree at once and then every `intervalMs`, reporting each sample; the first sample
 * past the cap is reported to `onOverCap` instead and ends the watch. Returns the function that
 * ends it. The timer does not keep the process alive.
 */
export function watchMemory(options: MemoryWatchOptions): () => void {
  let timer: NodeJS.Timeout | undefined;
  const stop = (): void => {
    if (timer !== undefined) clearInterval(timer);
    timer = undefined;
  };
  const sample = (): void => {
    const memory = measureTree(options.scan());
    if (options.capKiB !== null && memory.rssKiB > options.capKiB) {
      stop();
      options.onOverCap(memory);
    } else options.onSample(memory);
  };
  timer = setInterval(sample, options.intervalMs);
  timer.unref();
  sample();
  return stop;
}
