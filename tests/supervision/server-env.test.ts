import { describe, expect, test } from "vitest";
import { scrubbedEnv } from "../../src/supervision/server-env.js";

describe("scrubbedEnv", () => {
  test("keeps only PATH, HOME and LANG of the bridge's environment, then the extras", () => {
    const saved = { ...process.env };
    try {
      process.env.PATH = "/bin";
      process.env.HOME = "/home/x";
      process.env.LANG = "C.UTF-8";
      process.env.SECRET_TOKEN = "hunter2";
      process.env.NODE_OPTIONS = "--inspect";
      expect(scrubbedEnv({ FOO: "1" })).toEqual({ PATH: "/bin", HOME: "/home/x", LANG: "C.UTF-8", FOO: "1" });
      expect(scrubbedEnv({ PATH: "/opt/bin" }).PATH).toBe("/opt/bin");
      delete process.env.LANG;
      expect(Object.keys(scrubbedEnv({}))).toEqual(["PATH", "HOME"]);
      // A toolchain's own variables pass when named; env wins over an inherited value.
      process.env.GOPATH = "/go";
      process.env.GOPROXY = "https://proxy.golang.org";
      expect(scrubbedEnv({ GOPROXY: "off" }, ["GOPATH", "GOPROXY", "GOWORK"])).toEqual({ PATH: "/bin", HOME: "/home/x", GOPATH: "/go", GOPROXY: "off" });
      expect(scrubbedEnv({})).not.toHaveProperty("GOPATH");
    } finally {
      for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
      Object.assign(process.env, saved);
    }
  });
});
