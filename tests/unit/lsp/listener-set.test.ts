import { describe, expect, test } from "vitest";
import { ListenerSet } from "../../../src/lsp/listener-set.js";

describe("a set of listeners", () => {
  test("each hears every emit in the order it was added, until it stops listening", () => {
    const heard: string[] = [];
    const set = new ListenerSet<[line: string]>();
    const stopA = set.add((line) => heard.push(`a:${line}`));
    set.add((line) => heard.push(`b:${line}`));
    set.emit("1");
    stopA();
    set.emit("2");
    expect(heard).toEqual(["a:1", "b:1", "b:2"]);
    expect(set.size).toBe(1);
  });

  test("a listener taken off during an emit still hears that emit, and no later one", () => {
    const heard: string[] = [];
    const set = new ListenerSet<[]>();
    set.add(() => {
      heard.push("first");
      stopSecond();
    });
    const stopSecond = set.add(() => heard.push("second"));
    set.emit();
    set.emit();
    expect(heard).toEqual(["first", "second", "first"]);
  });
});
