/** A normalized extension: a dot, then one or more characters that are not dots, slashes or space. */
const EXTENSION = /^\.[^./\\\s]+$/;

/**
 * Normalizes a configured extension to the form the bridge matches against (`path.extname`,
 * lower-cased): "TS", ".ts" and ".Ts" all become ".ts". Returns null for something that can never
 * be an extension (empty, ".d.ts", "a/b"), which the loader reports as a problem.
 */
export function normalizeExtension(extension: string): string | null {
  const dotted = extension.startsWith(".") ? extension : `.${extension}`;
  const lower = dotted.toLowerCase();
  return EXTENSION.test(lower) ? lower : null;
}
