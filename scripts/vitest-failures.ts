import { writeFileSync } from "node:fs";
import type { Reporter, SerializedError, TestModule } from "vitest/node";
import { type Failure, failureLines } from "./test-plan.js";

/**
 * A vitest reporter beside the default one, for scripts/run-tests.ts: it writes every failure of
 * the run to the file LSPMCP_TEST_FAILURES names (a JSON array of lines), a hook's and a file's
 * own included, which vitest's JSON report leaves out (a failed `beforeAll` shows there only as
 * its tests skipped).
 */
export default class FailuresReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>, unhandled: ReadonlyArray<SerializedError>): void {
    const out = process.env.LSPMCP_TEST_FAILURES;
    if (out === undefined) return;
    const failures: Failure[] = [];
    for (const module of modules) {
      const file = module.relativeModuleId;
      for (const error of module.errors()) failures.push({ where: file, message: error.message });
      for (const suite of module.children.allSuites())
        for (const error of suite.errors()) failures.push({ where: `${file} > ${suite.fullName}`, message: error.message });
      for (const test of module.children.allTests("failed"))
        failures.push({ where: `${file} > ${test.fullName}`, message: test.result().errors?.[0]?.message });
    }
    for (const error of unhandled) failures.push({ where: "outside any test", message: error.message });
    writeFileSync(out, JSON.stringify(failureLines(failures)));
  }
}
