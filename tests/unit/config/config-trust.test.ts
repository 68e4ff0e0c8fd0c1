import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { parseCommand, USAGE } from "../../../src/cli/parse-args.js";
import { trustCommand, trustContextFor } from "../../../src/config/config-trust.js";
import { stateFolder } from "../../../src/config/state-folder.js";
import { tempDir, writeFiles } from "./fixture.js";

describe("how a command came by its config", () => {
  test("a discovered file, or one named inside the checkout of the current folder, is the checkout's; one named from outside is not", async () => {
    const repo = await writeFiles(await tempDir(), { ".git/HEAD": "", "bridge.toml": "", "sub/x": "" });
    const outside = await tempDir();
    const file = (path: string) => ({ kind: "file", path }) as const;
    const cwd = join(repo, "sub");
    expect(trustContextFor(null, file(join(repo, "bridge.toml")), false, cwd, {})).toEqual({ fromCheckout: true, optIn: null });
    expect(trustContextFor("../bridge.toml", file(join(repo, "bridge.toml")), false, cwd, {}).fromCheckout).toBe(true);
    expect(trustContextFor(join(outside, "b.toml"), file(join(outside, "b.toml")), false, cwd, {}).fromCheckout).toBe(false);
    // Outside a work tree the checkout is the current folder itself.
    mkdirSync(join(outside, "inner"));
    expect(trustContextFor("inner/b.toml", file(join(outside, "inner/b.toml")), false, outside, {}).fromCheckout).toBe(true);
    expect(trustContextFor(null, { kind: "default", root: repo }, false, cwd, {}).fromCheckout).toBe(false);
  });

  test("CI opts in with --trust-config or LSPMCP_TRUST_CONFIG=1, and with nothing else", () => {
    const source = { kind: "default", root: "/" } as const;
    expect(trustContextFor(null, source, true, "/", {}).optIn).toBe("--trust-config");
    expect(trustContextFor(null, source, false, "/", { LSPMCP_TRUST_CONFIG: "1" }).optIn).toBe("LSPMCP_TRUST_CONFIG=1");
    for (const value of ["0", "", "true", "yes"]) expect(trustContextFor(null, source, false, "/", { LSPMCP_TRUST_CONFIG: value }).optIn).toBeNull();
  });

  test("the trust records live in XDG_STATE_HOME (absolute only), else ~/.local/state", () => {
    expect(stateFolder({ XDG_STATE_HOME: "/s" })).toBe("/s/lspmcp");
    expect(stateFolder({ XDG_STATE_HOME: "rel" })).toMatch(/\/\.local\/state\/lspmcp$/);
    expect(stateFolder({})).toMatch(/\/\.local\/state\/lspmcp$/);
  });

  test("the command line: trust [--config FILE], --trust-config where a config may run, the command a refusal names", () => {
    expect(parseCommand(["trust"])).toEqual({ kind: "trust", config: null });
    expect(parseCommand(["trust", "--config", "a.toml"])).toEqual({ kind: "trust", config: "a.toml" });
    expect(() => parseCommand(["trust", "--trust-config"])).toThrow();
    expect(parseCommand(["check", "--trust-config"])).toMatchObject({ kind: "check", trustConfig: true });
    expect(parseCommand(["serve"])).toMatchObject({ kind: "serve", trustConfig: false });
    expect(USAGE).toContain("lspmcp trust [--config FILE]");
    expect(trustCommand("/a b/it's.toml")).toBe("lspmcp trust --config '/a b/it'\\''s.toml'");
  });
});
