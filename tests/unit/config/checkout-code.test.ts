// A project's own compiler runs only when the checkout holds it: found at or below the checkout's
// top, with no file or folder on the way that another user owns or may write (as ssh judges keys).
import { chmodSync, chownSync, mkdirSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { checkoutCodeRefusal } from "../../../src/config/checkout-code.js";
import { chooseTypescriptCompiler } from "../../../src/languages/typescript/compiler.js";
import { REPO } from "../../helpers/paths.js";
import { tempDir } from "../../helpers/temp.js";

/** An account that is not this one: `nobody`, which owns nothing of a checkout. */
const NOBODY = 65534;
const asRoot = process.getuid?.() === 0;

/** A fake TypeScript 5.9.3 package at `dir` (a tsserver.js that does nothing). */
function fakeTypescript(dir: string): string {
  mkdirSync(join(dir, "lib"), { recursive: true });
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "typescript", version: "5.9.3" }));
  writeFileSync(join(dir, "lib/tsserver.js"), "");
  return dir;
}

/** A checkout (a `.git` folder at its top) in a folder of its own, mode 0755. */
function checkout(): { outside: string; top: string } {
  const outside = realpathSync(tempDir("lspmcp-checkout-"));
  const top = join(outside, "repo");
  mkdirSync(join(top, ".git"), { recursive: true });
  chmodSync(outside, 0o755);
  return { outside, top };
}

const PINNED = join(REPO, "node_modules/typescript-7");

describe("checkoutCodeRefusal", () => {
  test("a package of this user's, below the top, may run", () => {
    const { top } = checkout();
    const pkg = fakeTypescript(join(top, "web/node_modules/typescript"));
    expect(checkoutCodeRefusal(join(pkg, "lib/tsserver.js"), top)).toBeNull();
  });

  test("a folder on the way that every user may write is refused, and named", () => {
    const { top } = checkout();
    const pkg = fakeTypescript(join(top, "web/node_modules/typescript"));
    chmodSync(join(top, "web"), 0o777);
    expect(checkoutCodeRefusal(join(pkg, "lib/tsserver.js"), top)).toBe(`${join(top, "web")} may be written by every user (mode 0777)`);
  });

  test("a file another user's group may write is refused", () => {
    const { top } = checkout();
    const pkg = fakeTypescript(join(top, "node_modules/typescript"));
    const script = join(pkg, "lib/tsserver.js");
    if (asRoot) chownSync(script, 0, NOBODY);
    chmodSync(script, 0o664);
    expect(checkoutCodeRefusal(script, top)).toMatch(new RegExp(`^${script} may be written by group .*gid ${asRoot ? NOBODY : ""}`));
  });

  test.runIf(asRoot)("a package that another user owns is refused, naming the owner", () => {
    const { top } = checkout();
    const pkg = fakeTypescript(join(top, "node_modules/typescript"));
    chownSync(pkg, NOBODY, NOBODY);
    expect(checkoutCodeRefusal(join(pkg, "lib/tsserver.js"), top)).toMatch(new RegExp(`^${pkg} is owned by nobody \\(uid ${NOBODY}\\)`));
  });

  test("a link out of the checkout is held to the rule up to /: the system temp folder may be written by every user", () => {
    const { top } = checkout();
    const planted = fakeTypescript(join(realpathSync(tempDir("lspmcp-planted-")), "typescript"));
    mkdirSync(join(top, "node_modules"));
    symlinkSync(planted, join(top, "node_modules/typescript"));
    expect(checkoutCodeRefusal(join(top, "node_modules/typescript/lib/tsserver.js"), top)).toMatch(/^\/tmp may be written by every user \(mode 1777\)$/);
  });

  test("a link into another checkout (a pnpm store, a snapshot's link) is held to the rule up to that checkout's top", () => {
    const { top } = checkout();
    const other = checkout().top;
    const pkg = fakeTypescript(join(other, "node_modules/typescript"));
    mkdirSync(join(top, "node_modules"));
    symlinkSync(pkg, join(top, "node_modules/typescript"));
    expect(checkoutCodeRefusal(join(top, "node_modules/typescript/lib/tsserver.js"), top)).toBeNull();
    chmodSync(join(other, "node_modules"), 0o777);
    expect(checkoutCodeRefusal(join(top, "node_modules/typescript/lib/tsserver.js"), top)).toMatch(/may be written by every user/);
  });
});

describe("the project's own TypeScript is looked for in the checkout only", () => {
  test("a node_modules/typescript above the git top-level is not the project's: the pinned compiler answers", () => {
    const { outside, top } = checkout();
    fakeTypescript(join(outside, "node_modules/typescript"));
    mkdirSync(join(top, "web"));
    expect(chooseTypescriptCompiler(join(top, "web"), top, PINNED)).toMatchObject({ compiler: { source: "pinned", version: "7.0.2" } });
  });

  test("the project's own, in its folder below the top, answers", () => {
    const { top } = checkout();
    const pkg = fakeTypescript(join(top, "web/node_modules/typescript"));
    expect(chooseTypescriptCompiler(join(top, "web"), top, PINNED)).toEqual({
      compiler: { source: "workspace", version: "5.9.3", packageDir: pkg, kind: "tsserver" },
    });
    // Another package of the checkout without one is not answered by web's.
    mkdirSync(join(top, "tools"));
    expect(chooseTypescriptCompiler(join(top, "tools"), top, PINNED)).toMatchObject({ compiler: { source: "pinned" } });
  });

  test("the project's own that the checkout does not hold is refused with the reason, never replaced by another compiler", () => {
    const { top } = checkout();
    const pkg = fakeTypescript(join(top, "node_modules/typescript"));
    chmodSync(join(pkg, "lib"), 0o777);
    expect(chooseTypescriptCompiler(top, top, PINNED)).toEqual({
      refused: `lspmcp runs only a compiler the checkout holds, and ${join(pkg, "lib")} may be written by every user (mode 0777)`,
      packageDir: pkg,
    });
  });
});
