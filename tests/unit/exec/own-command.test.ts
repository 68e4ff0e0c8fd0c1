// How lspmcp runs a program on its own account: Python isolated, search paths kept off checkouts.
import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "vitest";
import { ownArgv, ownEnv, ownSearchPath } from "../../../src/exec/own-command.js";
import { tempDir } from "../../helpers/temp.js";

test("a Python interpreter gets -I first, once; other programs run as named", () => {
  expect(ownArgv(["/usr/bin/python3", "-c", "import x"])).toEqual(["/usr/bin/python3", "-I", "-c", "import x"]);
  expect(ownArgv(["python3.11", "-m", "venv", "/v"])).toEqual(["python3.11", "-I", "-m", "venv", "/v"]);
  expect(ownArgv(["/stage/bin/python", "-I", "-m", "pip"])).toEqual(["/stage/bin/python", "-I", "-m", "pip"]);
  expect(ownArgv(["git", "ls-files"])).toEqual(["git", "ls-files"]);
  expect(ownArgv(["/usr/bin/python3-config", "--help"])).toEqual(["/usr/bin/python3-config", "--help"]);
});

test("a server's version command keeps the server's Python environment: no -I, so it imports what the server imports", () => {
  expect(ownArgv(["/usr/bin/python3", "-c", "import pyflakes, pylsp"], "server")).toEqual(["/usr/bin/python3", "-c", "import pyflakes, pylsp"]);
  // The safe path holds all the same: no current or script folder on sys.path.
  expect(ownEnv({ PATH: "/usr/bin" }).PYTHONSAFEPATH).toBe("1");
});

test("a search path loses its empty and relative entries and those inside a checkout, links resolved", () => {
  const root = tempDir("lspmcp-own-path-");
  const checkout = join(root, "checkout");
  mkdirSync(join(checkout, "bin"), { recursive: true });
  symlinkSync(join(checkout, "bin"), join(root, "link"));
  const path = ["", ".", "node_modules/.bin", join(checkout, "bin"), join(root, "link"), "/usr/bin", "/bin"].join(":");
  expect(ownSearchPath(path, [checkout])).toBe("/usr/bin:/bin");
});

test("the environment keeps Python's safe path on and filters every search path", () => {
  const env = ownEnv({ PATH: ".:/usr/bin", PYTHONPATH: "lib:/opt/py", NODE_PATH: "", HOME: "/home/u" }, []);
  expect(env).toEqual({ PATH: "/usr/bin", PYTHONPATH: "/opt/py", NODE_PATH: "", HOME: "/home/u", PYTHONSAFEPATH: "1" });
});
