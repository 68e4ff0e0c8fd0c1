// The settings that keep a repository's own configuration from starting a program: each
// program-naming key of a repository scope is neutralised; the user's own keys are left alone.
import { describe, expect, test } from "vitest";
import { repositoryOverrides, settingsEnv } from "../../../src/git/git-overrides.js";

const listing = (...pairs: [string, string][]) => pairs.map(([scope, key]) => `${scope}\0${key}\0`).join("");

describe("repositoryOverrides", () => {
  test("a repository's filter driver, required flag and transport are turned off, once each", () => {
    const out = repositoryOverrides(
      listing(
        ["local", "core.repositoryformatversion"],
        ["local", "filter.evil.smudge"],
        ["local", "filter.evil.clean"],
        ["worktree", "filter.evil.process"],
        ["local", "filter.evil.required"],
        ["local", "filter.evil.smudge"],
        ["local", "protocol.ext.allow"],
      ),
    );
    expect(out).toEqual([
      ["filter.evil.smudge", ""],
      ["filter.evil.clean", ""],
      ["filter.evil.process", ""],
      ["filter.evil.required", "false"],
      ["protocol.ext.allow", "never"],
    ]);
  });

  test("the user's own (global, system) filters keep working", () => {
    expect(repositoryOverrides(listing(["global", "filter.lfs.smudge"], ["system", "filter.lfs.process"]))).toEqual([]);
  });

  test("a subsection holding '=' or a newline stays one key", () => {
    expect(repositoryOverrides(listing(["local", "filter.a=b\nc.smudge"]))).toEqual([["filter.a=b\nc.smudge", ""]]);
  });
});

test("settingsEnv gives them as git's GIT_CONFIG_COUNT, KEY and VALUE variables", () => {
  expect(
    settingsEnv([
      ["core.fsmonitor", "false"],
      ["filter.a=b.smudge", ""],
    ]),
  ).toEqual({
    GIT_CONFIG_COUNT: "2",
    GIT_CONFIG_KEY_0: "core.fsmonitor",
    GIT_CONFIG_VALUE_0: "false",
    GIT_CONFIG_KEY_1: "filter.a=b.smudge",
    GIT_CONFIG_VALUE_1: "",
  });
});
