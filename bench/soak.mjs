// Soak. Modes, chosen by flags (run `npm run build` first; `npm run soak` does setup and runs
// the default mode at full size; later flags win, so `npm run soak -- --calls 100000 --mix` works):
//   (default)      the plateau soak (issue 26, bench/soak-steady.mjs): for each of `--targets`
//                  (standalone, shared), `--warmup` calls and then `--calls` more through one lspmcp
//                  over the real TypeScript server; RSS of every lspmcp process (standalone bridge,
//                  shared server, forwarder) read every `--every` calls; after warm-up its growth
//                  must stay under `--growth-mb` over the calls and under `--last-growth-mb` over
//                  the last `--last-calls` (8 MB over 10,000 and 2 MB over 5,000 by default).
//                  `--heap` loads the heap probe (bench/heap-probe-preload.cjs) and adds each
//                  process's heap used after a full GC to the samples;
//   --mix          the long soak (issue 19, bench/soak-mix.mjs): `--workers` attached serve
//                  processes drive one shared bridge with every listed tool over TypeScript,
//                  Python and C files edited on disk as it goes; zero failed calls and zero stale
//                  answers expected; RSS of the bridge, forwarders and each server over time, and
//                  the same plateau judged for the bridge and each forwarder;
//   --fuzz N       fuzz at scale (bench/soak-fuzz.mjs): N generated calls across every tool.
// `--minutes M` ends the mix early (the report says how many calls were made). Prints one JSON
// object: the default mode's report ({ standalone, shared, ok }), or { mix, fuzz } with the reports
// of the modes that ran. Exits 1 when a plateau or a call failed.
// Usage: node bench/soak.mjs [--targets standalone,shared] [--warmup 1000] [--calls 10000]
//        [--every 250] [--heap] | --mix [--calls N] [--workers 3] [--minutes M] [--max-open 4]
//        | --calls 0 --fuzz 10000 [--seed 7]
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { soakFuzz } from "./soak-fuzz.mjs";
import { soakMix } from "./soak-mix.mjs";
import { PLATEAU_LIMITS } from "./soak-stats.mjs";
import { soakSteady } from "./soak-steady.mjs";

const REPO = resolve(fileURLToPath(new URL("..", import.meta.url)));
const argv = process.argv.slice(2);
// The last occurrence wins: flags given to `npm run soak -- ...` come after the script's own.
const option = (name, fallback, min = 1) => {
  const at = argv.lastIndexOf(name);
  const value = at >= 0 ? Number(argv[at + 1]) : NaN;
  return Number.isInteger(value) && value >= min ? value : fallback;
};
const CALLS = option("--calls", 10_000, 0);
const MIX = argv.includes("--mix");
const FUZZ = option("--fuzz", 0, 0);
const EVERY = option("--every", MIX ? 500 : 250);
const log = (line) => process.stderr.write(`${line}\n`);

if (MIX || FUZZ > 0) {
  const report = {};
  if (MIX && CALLS > 0) {
    report.mix = await soakMix({
      calls: CALLS,
      every: EVERY,
      workers: option("--workers", 3),
      minutes: option("--minutes", 0, 0),
      maxOpen: option("--max-open", 4),
      log,
    });
  }
  if (FUZZ > 0) report.fuzz = await soakFuzz({ repo: REPO, count: FUZZ, seed: option("--seed", 7, 0), log });
  console.log(JSON.stringify(report));
  process.exit(report.mix?.ok === false ? 1 : 0);
}

const KIB_PER_MB = 1024;
const limits = {
  window_calls: CALLS,
  growth_kib: option("--growth-mb", PLATEAU_LIMITS.growth_kib / KIB_PER_MB) * KIB_PER_MB,
  last_calls: Math.min(CALLS, option("--last-calls", PLATEAU_LIMITS.last_calls)),
  last_growth_kib: option("--last-growth-mb", PLATEAU_LIMITS.last_growth_kib / KIB_PER_MB) * KIB_PER_MB,
};
const at = argv.lastIndexOf("--targets");
const targets = (at >= 0 ? argv[at + 1] : "standalone,shared").split(",");
const report = { ok: true };
for (const target of targets) {
  if (target !== "standalone" && target !== "shared") throw new Error(`unknown soak target ${target} (standalone, shared)`);
  report[target] = await soakSteady({ target, warmup: option("--warmup", 1000, 0), calls: CALLS, every: EVERY, heap: argv.includes("--heap"), limits, log });
  report.ok &&= report[target].ok;
}
console.log(JSON.stringify(report));
process.exit(report.ok ? 0 : 1);
