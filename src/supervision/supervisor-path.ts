import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The compiled supervisor entry. From the built bridge it sits next to this module; when this
 * module runs from source (vitest transpiles `src/`), the supervisor still has to be the compiled
 * one, because a plain `node` cannot run TypeScript — so `npm run build` comes first.
 * Returns undefined when it has not been built.
 */
export function supervisorMainPath(): string | undefined {
  const here = fileURLToPath(import.meta.url);
  const candidate = here.endsWith(".ts")
    ? join(resolve(dirname(here), "..", ".."), "dist", "src", "supervision", "supervisor-main.js")
    : join(dirname(here), "supervisor-main.js");
  return existsSync(candidate) ? candidate : undefined;
}
