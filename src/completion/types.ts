/** Commander's definition as shell completion reads it: tree.ts makes it, answer.ts reads it. */

/** An option as completion needs it (completion/tree.ts makes it from commander's Option). */
export interface OptionNode {
  flags: string[];
  /** commander's attribute name: `sandbox`, `profile`. */
  attribute: string;
  /** The value's placeholder, `<path>`, when the option takes one. */
  value?: string;
  choices?: string[];
  repeatable: boolean;
  /** Taken when typed, never offered (`--journal`, the older name of `--ledger`). */
  hidden: boolean;
  description: string;
}

interface ArgumentNode {
  name: string;
  variadic: boolean;
  choices?: string[];
}

export interface CommandNode {
  name: string;
  aliases: string[];
  description: string;
  options: OptionNode[];
  arguments: ArgumentNode[];
  commands: CommandNode[];
}

interface NamedValue {
  id: string;
  name: string;
}

export interface CompletionData {
  tree: CommandNode;
  sandboxServices: NamedValue[];
}
