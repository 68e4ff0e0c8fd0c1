export interface Greeting {
  readonly text: string;
  readonly loud: boolean;
}

export function greet(name: string): Greeting {
  const smile = "😀"; const message = `hello ${name}`;
  return { text: message, loud: false };
}

export const count: number = "three";
