/**
 * The scenario model: the one parser and validator of the benchmark format, shared by the
 * engine, the CLI, the language server and the extension. Pure: no file system, no editor.
 */
export * from './benchmark';
export * from './chapter';
export * from './config';
export { AGENT_NAMES, isModuleAgent, MODULE_AGENT_PATTERN, SHARED_RUN_KEYS } from './runKeys';
export * from './coverage';
export * from './diagnostics';
export { DIAGNOSTIC_CODES, type RuleCode } from './rules';
export * from './limits';
export * from './manifest';
export * from './model';
export * from './sheet';
export * from './suggest';
export * from './templates';
export * from './text';
export * from './validate';
export { BenchmarkValidation, type Validated } from './incremental';
export { updateBenchmark } from './revise';
export { CHECK_MARK, TRAP_MARK } from './items';
export { dayNumber } from './inline';
export { credentialIn, hasUrlUserinfo, isCredentialKey, isCredentialValue, isKeyShaped, nameWords, urlCredential } from './credentials';
export { configBomProblem, configBytesProblem, configFileProblem, decodeConfigBytes } from './configText';
export * from './envVars';
