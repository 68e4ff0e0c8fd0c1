// Summarises V8 CPU profiles (`node --cpu-prof`): the top frames by self time and their share of
// the profile's samples, and the share spent per package (node internals, the MCP SDK, zod, ...).
// Usage: node bench/profile-summary.mjs FILE.cpuprofile... [--top 15]
import { readFileSync } from "node:fs";

const args = process.argv.slice(2);
const top = args.includes("--top") ? Number(args[args.indexOf("--top") + 1]) : 15;
const files = args.filter((a, i) => a.endsWith(".cpuprofile") && args[i - 1] !== "--top");

function where(frame) {
  const url = frame.url ?? "";
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1];
  if (pkg) return pkg;
  if (url.includes("/dist/src/")) return "lspmcp " + url.slice(url.indexOf("/dist/src/") + 10).split("/")[0];
  if (url.startsWith("node:")) return "node internals";
  if (!url) return frame.functionName.startsWith("(") ? frame.functionName : "native";
  return "other";
}

for (const file of files) {
  const profile = JSON.parse(readFileSync(file, "utf8"));
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const counts = new Map();
  for (const id of profile.samples) counts.set(id, (counts.get(id) ?? 0) + 1);
  const total = profile.samples.length;
  const idle = [...counts].filter(([id]) => byId.get(id).callFrame.functionName === "(idle)").reduce((s, [, c]) => s + c, 0);
  const busy = total - idle;
  const frames = new Map();
  const packages = new Map();
  for (const [id, count] of counts) {
    const frame = byId.get(id).callFrame;
    if (frame.functionName === "(idle)") continue;
    const key = `${frame.functionName || "(anonymous)"} ${frame.url.split("/").slice(-2).join("/")}:${frame.lineNumber + 1}`;
    frames.set(key, (frames.get(key) ?? 0) + count);
    packages.set(where(frame), (packages.get(where(frame)) ?? 0) + count);
  }
  const micros = (profile.endTime - profile.startTime) * (busy / total);
  console.log(`${file}: ${(micros / 1000).toFixed(0)} ms busy of ${((profile.endTime - profile.startTime) / 1000).toFixed(0)} ms (${busy} samples)`);
  const pct = (c) => `${((100 * c) / busy).toFixed(1).padStart(5)}%`;
  console.log(
    "  by package: " +
      [...packages]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 8)
        .map(([k, c]) => `${k} ${pct(c).trim()}`)
        .join(", "),
  );
  for (const [key, count] of [...frames].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`  ${pct(count)}  ${key}`);
}
