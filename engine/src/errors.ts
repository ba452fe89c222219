/**
 * The errors that stop a command because of what the user asked for, as opposed to problems found
 * inside a benchmark (those are diagnostics). The CLI prints each as one message on stderr and
 * exits 2, without a stack trace; they live here, below every folder, so any folder can throw one.
 */

/** A problem with what the user asked for: a path, a name, an option. */
export class UsageError extends Error {}

/** A problem with settings (config.jsonc, a model, a key) that stops a run before it starts. */
export class ConfigError extends Error {}

/** A run that another live process holds (its `run.lock`). */
export class RunBusy extends Error {}
