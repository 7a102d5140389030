import type { Option } from 'commander';

/** A repeatable option's parser: each use adds its value. No default list is set, so --help
 * shows no `(default: [])`; parseOptions reads "not given" as the empty list. */
export const collect = (value: string, previous: string[] | undefined): string[] => [...(previous ?? []), value];

/** Whether each use of the option adds a value (completion offers it again). */
export const isRepeatable = (option: Option): boolean => option.variadic || option.parseArg === collect;
