import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { projectRootsIn } from "../../../src/languages/index.js";
import { tempRepo, type TempRepo } from "../../helpers/temp-repo.js";

const crate = (name: string) => `[package]\nname = "${name}"\nversion = "0.1.0"\nedition = "2021"\n`;

let repo: TempRepo;
beforeAll(() => {
  repo = tempRepo({
    ".gitignore": "vendor/\n",
    "pyproject.toml": '[project]\nname = "mono"\n',
    "packages/strict/pyproject.toml": '[project]\nname = "strict"\n\n[tool.pyright]\ntypeCheckingMode = "strict"\n',
    "packages/based/pyproject.toml": "[tool.basedpyright.analysis]\nx = 1\n",
    "packages/plain/pyproject.toml": '[project]\nname = "plain"\n\n[tool.ruff]\nline-length = 90\n',
    "services/api/pyrightconfig.json": "{}\n",
    "py/ty/ty.toml": "",
    "py/typroj/pyproject.toml": "[tool.ty.rules]\n",
    "py/refly/pyrefly.toml": "",
    "tools/a/Cargo.toml": crate("a"),
    "services/b/Cargo.toml": crate("b"),
    "ws/Cargo.toml": '[workspace]\nmembers = ["m1", "crates/*"]\n',
    "ws/m1/Cargo.toml": crate("m1"),
    "ws/crates/m2/Cargo.toml": crate("m2"),
    "services/b/target/package/b-0.1.0/Cargo.toml": crate("b"),
    "vendor/dep/Cargo.toml": crate("dep"),
    "tsconfig.json": '{ "files": [], "references": [{ "path": "web" }] }\n',
    "web/tsconfig.json": "{}\n",
    "scripts/jsconfig.json": "{}\n",
    "vendor/lib/tsconfig.json": "{}\n",
  });
});
afterAll(() => repo?.remove());

describe("projectRootsIn (the languages' markers, found by findProjectRoots)", () => {
  test("pyright: folders with pyrightconfig.json or a pyproject.toml [tool.pyright]", async () => {
    expect(await projectRootsIn(repo.root, "pyright")).toEqual(["packages/strict", "services/api"]);
  });

  test("basedpyright: its own table too", async () => {
    expect(await projectRootsIn(repo.root, "basedpyright")).toEqual(["packages/based", "packages/strict", "services/api"]);
  });

  test("ty: its file and its table", async () => {
    expect(await projectRootsIn(repo.root, "ty")).toEqual(["py/ty", "py/typroj"]);
  });

  test("cargo: every crate and workspace at any depth, not a workspace's members, nothing under target/ or ignored", async () => {
    expect(await projectRootsIn(repo.root, "cargo")).toEqual(["services/b", "tools/a", "ws"]);
  });

  test("typescript: every tsconfig.json and jsconfig.json folder, the solution's at the top-level included, nothing ignored", async () => {
    expect(await projectRootsIn(repo.root, "typescript")).toEqual(["", "scripts", "web"]);
  });

  test("a root configured at the top-level is the root itself", async () => {
    const top = tempRepo({ "Cargo.toml": '[workspace]\nmembers = ["a"]\n', "a/Cargo.toml": crate("a"), "pyrightconfig.json": "{}\n" });
    try {
      expect(await projectRootsIn(top.root, "cargo")).toEqual([""]);
      expect(await projectRootsIn(top.root, "pyright")).toEqual([""]);
    } finally {
      top.remove();
    }
  });
});
