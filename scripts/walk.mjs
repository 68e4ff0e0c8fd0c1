#!/usr/bin/env node
// The walk of a command through the sources: from one function (by default `check` of
// src/cli/check.ts, which `lspmcp check` and `lspmcp check --since` run), every function of ours
// it calls, and those they call, read from the code by TypeScript's checker. It prints the folders
// the walk enters and each call back up a layer: a call from a room to a function of a room above
// it in docs/contributors/architecture.md's list. Imports only run down that list, so such a call
// is always a callback: a function a higher room hands down (an argument, or a function-valued
// property of an object argument) that the lower room then calls.
//
// A contributor's tool, not shipped: `node scripts/walk.mjs [file.ts function] [--doors=ROOM,...] [--list] [--json]`.
// Calls are followed statically, every branch taken (so `--since`'s path and the plain run's
// alike); a call through an interface's method (an adapter's, a lane's) ends at the interface,
// as nothing in the code says which implementation answers it.
import { readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const SRC = join(REPO, "src");
const args = process.argv.slice(2).filter((arg) => !arg.startsWith("--"));
const list = process.argv.includes("--list");
/** `--doors=config,contract`: rooms whose functions are counted where they are called but not followed inside. */
const doors = new Set(
  process.argv
    .find((arg) => arg.startsWith("--doors="))
    ?.slice("--doors=".length)
    .split(",") ?? [],
);
const entryFile = resolve(REPO, args[0] ?? "src/cli/check.ts");
const entryName = args[1] ?? "check";

/** The rooms of architecture.md's arrows list, top floor first. */
function roomOrder() {
  const text = readFileSync(join(REPO, "docs/contributors/architecture.md"), "utf8");
  const block = text.slice(text.indexOf("<!-- arrows -->"), text.indexOf("<!-- /arrows -->"));
  return block
    .split("\n")
    .map((line) => /^(\S+)\s+→/.exec(line)?.[1])
    .filter(Boolean);
}

const ROOMS = roomOrder();
const inSrc = (file) => !relative(SRC, file).startsWith("..") && !file.endsWith(".d.ts");
const folderOf = (file) => relative(SRC, dirname(file)).split(sep).join("/");
const roomOf = (file) => relative(SRC, file).split(sep)[0];
const layerOf = (file) => ROOMS.indexOf(roomOf(file));

const config = ts.getParsedCommandLineOfConfigFile(join(REPO, "tsconfig.json"), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
const program = ts.createProgram({ rootNames: config.fileNames.filter((file) => inSrc(resolve(file))), options: { ...config.options, noEmit: true } });
const checker = program.getTypeChecker();

const isFunctionLike = (node) =>
  ts.isFunctionDeclaration(node) ||
  ts.isMethodDeclaration(node) ||
  ts.isArrowFunction(node) ||
  ts.isFunctionExpression(node) ||
  ts.isConstructorDeclaration(node) ||
  ts.isGetAccessorDeclaration(node);

/** The function a declaration stands for: itself, a variable's function value, a class's constructor. */
function unitOf(declaration) {
  if (isFunctionLike(declaration)) return declaration.body ? declaration : null;
  if (ts.isVariableDeclaration(declaration) && declaration.initializer && isFunctionLike(declaration.initializer)) return declaration.initializer;
  if (ts.isPropertyAssignment(declaration) && isFunctionLike(declaration.initializer)) return declaration.initializer;
  if (ts.isClassDeclaration(declaration)) return declaration.members.find(ts.isConstructorDeclaration) ?? null;
  return null;
}

function declarationsOf(expression) {
  const node = ts.isPropertyAccessExpression(expression) ? expression.name : expression;
  let symbol = checker.getSymbolAtLocation(node);
  if (!symbol) return [];
  if (symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
  return (symbol.declarations ?? []).filter((declaration) => inSrc(declaration.getSourceFile().fileName));
}

/** Whether an argument hands a function down: a function itself, a reference to one, or an object with function-valued properties. */
function handsDown(argument) {
  if (isFunctionLike(argument)) return true;
  if (ts.isObjectLiteralExpression(argument)) {
    return argument.properties.some(
      (property) => ts.isMethodDeclaration(property) || (ts.isPropertyAssignment(property) && isFunctionLike(property.initializer)),
    );
  }
  return false;
}

const name = (unit) => {
  const file = relative(REPO, unit.getSourceFile().fileName);
  const named =
    unit.name?.getText() ??
    (ts.isVariableDeclaration(unit.parent) ? unit.parent.name.getText() : ts.isPropertyAssignment(unit.parent) ? unit.parent.name.getText() : "(anonymous)");
  return `${file}:${named}`;
};

const entrySource = program.getSourceFile(entryFile);
if (!entrySource) throw new Error(`no source ${entryFile}`);
let entry = null;
ts.forEachChild(entrySource, function find(node) {
  if (entry) return;
  if ((ts.isFunctionDeclaration(node) || ts.isVariableDeclaration(node)) && node.name?.getText() === entryName) entry = unitOf(node);
  else ts.forEachChild(node, find);
});
if (!entry) throw new Error(`no function ${entryName} in ${entryFile}`);

const visited = new Set();
const folders = new Map();
const upCalls = [];
const queue = [entry];
while (queue.length > 0) {
  const unit = queue.shift();
  if (visited.has(unit)) continue;
  visited.add(unit);
  const file = unit.getSourceFile().fileName;
  folders.set(folderOf(file), (folders.get(folderOf(file)) ?? 0) + 1);
  ts.forEachChild(unit, function visit(node) {
    if (ts.isCallExpression(node) || ts.isNewExpression(node)) {
      for (const declaration of declarationsOf(node.expression)) {
        const callee = unitOf(declaration);
        const calleeFile = declaration.getSourceFile().fileName;
        if (callee && doors.has(roomOf(calleeFile))) folders.set(folderOf(calleeFile), folders.get(folderOf(calleeFile)) ?? 0);
        else if (callee) queue.push(callee);
        // A function handed down to a lower room is called from there: a call back up.
        if (layerOf(calleeFile) > layerOf(file) && (node.arguments ?? []).some(handsDown)) {
          // A listener registered on an event (`onClose`, `onExpire`): called when the event
          // happens, not as a step of the callee's work.
          const listener = /^on[A-Z]/.test(declaration.name?.getText() ?? "");
          upCalls.push(`${relative(REPO, calleeFile)} (${roomOf(calleeFile)}) → ${name(unit)} (${roomOf(file)})${listener ? " [listener]" : ""}`);
        }
      }
    }
    ts.forEachChild(node, visit);
  });
}

const unique = [...new Set(upCalls)];
if (process.argv.includes("--json")) {
  const followed = [...folders].filter(([, count]) => count > 0).map(([folder]) => folder);
  console.log(JSON.stringify({ functions: visited.size, folders: [...folders.keys()].sort(), followed: followed.sort(), upCalls: unique }));
  process.exit(0);
}
console.log(
  `walk of ${relative(REPO, entryFile)}:${entryName}: ${visited.size} functions, ${new Set([...visited].map((unit) => unit.getSourceFile().fileName)).size} files`,
);
const followed = [...folders].filter(([, count]) => count > 0).length;
console.log(
  `folders entered: ${folders.size} (rooms: ${new Set([...folders.keys()].map((folder) => folder.split("/")[0])).size}); followed inside: ${followed}`,
);
for (const [folder, count] of [...folders].sort()) console.log(`  ${folder || "."} (${count} functions)`);
console.log(`calls back up a layer: ${unique.length} (listeners on an event among them: ${unique.filter((call) => call.endsWith("[listener]")).length})`);
for (const call of unique) console.log(`  ${call}`);
if (list) for (const unit of visited) console.log(`  ${name(unit)}`);
