import { defineConfig } from "vitest/config";

// Integration tests spawn real language servers; two cores means at most two test files at once.
export default defineConfig({
  test: {
    include: ["tests/**/*.test.ts"],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: "forks",
    maxWorkers: 2,
  },
});
