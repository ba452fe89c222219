/**
 * Writes what is generated from the agent registry (engine/src/adapters/configSchema.ts and
 * agentsModule.ts, agentsTables.ts): schemas/config.schema.json, the table of run keys in docs/format.md,
 * the agents module the parser validates runs with and the tables of agents in docs/agents.md; from the
 * persona tools' files the module listing them (engine/src/run/tools/toolsModule.ts), the system
 * prompt's list of tools (promptSection.ts) and the table of persona tools in docs/format.md
 * (referenceTable.ts); from `DIAGNOSTIC_CODES` the table of codes in docs/format-notes.md
 * (engine/src/diagnosticCodesTable.ts); from engine/src/judge/rules.ts the grading rules of the system
 * prompt and docs/grading.md; from a grading item's fields and `ANSWER_KINDS` the schema of a grading
 * set's line and the table of answer kinds in docs/grading.md (engine/src/judge/gradingSetSchema.ts);
 * from scripts/importRules.mjs the table of what each part may import in ARCHITECTURE.md; from the world
 * spec's key table and presets (engine/src/generate/specKeys.ts, presets.ts) schemas/world.schema.json
 * and the tables of docs/generate.md. Run it after changing an agent's entry, a persona tool, a
 * diagnostic's row, a grading item's field, an answer kind, an import rule, a world spec key or a
 * preset: `npm run schemas`; a test fails while any committed file differs.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AGENTS_MODULE_PATH, agentsModuleText } from '../engine/src/adapters/agentsModule';
import { withAgentsTables } from '../engine/src/adapters/agentsTables';
import { configSchemaText, withRunKeysTable } from '../engine/src/adapters/configSchema';
import { withDiagnosticCodesTable } from '../engine/src/diagnosticCodesTable';
import { SYSTEM_PROMPT_PATH, withPromptToolsList } from '../engine/src/run/tools/promptSection';
import { withPersonaToolsTable } from '../engine/src/run/tools/referenceTable';
import { findPersonaTools, TOOLS_MODULE_PATH, toolsByName, toolsModuleText } from '../engine/src/run/tools/toolsModule';
import { withGeneratedBlock } from '../engine/src/generatedBlock';
import { GRADING_RULES_END, GRADING_RULES_START, gradingRulesBlock } from '../engine/src/judge/rules';
import { GRADING_SET_SCHEMA_PATH, gradingSetSchemaText, withAnswerKindsTable } from '../engine/src/judge/gradingSetSchema';
import { WORLD_SCHEMA_PATH, withWorldTables, worldSchemaText } from '../engine/src/generate/specSchema';
import { IMPORT_RULES_END, IMPORT_RULES_START, importRulesTable } from './importRules.mjs';

const root = join(__dirname, '..');

/** A document that lost its markers is one line to fix by hand, not a stack trace. */
function stopWith(message: string): never {
  process.stderr.write(`npm run schemas: ${message}\n`);
  process.exit(1);
}

// The tools as the folder has them now, not as the module this process loaded (it may lack a new one).
const found = findPersonaTools(root);
const tools = toolsByName(found);
writeFileSync(join(root, TOOLS_MODULE_PATH), toolsModuleText(found));
process.stdout.write(`wrote ${TOOLS_MODULE_PATH}\n`);

const promptFile = join(root, SYSTEM_PROMPT_PATH);
const withList = withPromptToolsList(readFileSync(promptFile, 'utf8'), tools);
if (withList === undefined) stopWith(`${promptFile} has lost its generated:persona-tools markers; put them back under "# Your tools".`);
writeFileSync(promptFile, withList);
process.stdout.write(`wrote the list of tools of ${promptFile}\n`);

for (const file of [promptFile, join(root, 'docs', 'grading.md')]) {
  const withRules = withGeneratedBlock(readFileSync(file, 'utf8'), GRADING_RULES_START, GRADING_RULES_END, gradingRulesBlock());
  if (withRules === undefined) stopWith(`${file} has lost its generated:grading-rules markers; put them back.`);
  writeFileSync(file, withRules);
  process.stdout.write(`wrote the grading rules of ${file}\n`);
}

const schema = join(root, 'schemas', 'config.schema.json');
writeFileSync(schema, configSchemaText());
process.stdout.write(`wrote ${schema}\n`);

const reference = join(root, 'docs', 'format.md');
const updated = withRunKeysTable(readFileSync(reference, 'utf8'));
if (updated === undefined) stopWith(`${reference} has lost its run-keys markers; put them back around the table of run keys.`);
writeFileSync(reference, updated);
process.stdout.write(`wrote the run keys of ${reference}\n`);

const withTools = withPersonaToolsTable(readFileSync(reference, 'utf8'), tools);
if (withTools === undefined) stopWith(`${reference} has lost its persona-tools markers; put them back around the table of persona tools.`);
writeFileSync(reference, withTools);
process.stdout.write(`wrote the persona tools of ${reference}\n`);

const notes = join(root, 'docs', 'format-notes.md');
const withCodes = withDiagnosticCodesTable(readFileSync(notes, 'utf8'));
if (withCodes === undefined) stopWith(`${notes} has lost its diagnostic-codes markers; put them back around the table of codes.`);
writeFileSync(notes, withCodes);
process.stdout.write(`wrote the diagnostic codes of ${notes}\n`);

const agentsModule = join(root, AGENTS_MODULE_PATH);
writeFileSync(agentsModule, agentsModuleText());
process.stdout.write(`wrote ${agentsModule}\n`);

const agentsDoc = join(root, 'docs', 'agents.md');
const withTables = withAgentsTables(readFileSync(agentsDoc, 'utf8'));
if (withTables === undefined)
  stopWith(`${agentsDoc} has lost a pair of generated:agents-own / generated:agents-built-in markers; put them back.`);
writeFileSync(agentsDoc, withTables);
process.stdout.write(`wrote the agents tables of ${agentsDoc}\n`);

const map = join(root, 'ARCHITECTURE.md');
const withImportRules = withGeneratedBlock(readFileSync(map, 'utf8'), IMPORT_RULES_START, IMPORT_RULES_END, importRulesTable());
if (withImportRules === undefined) stopWith(`${map} has lost its generated:import-rules markers; put them back around the import table.`);
writeFileSync(map, withImportRules);
process.stdout.write(`wrote the import rules of ${map}\n`);

writeFileSync(join(root, GRADING_SET_SCHEMA_PATH), gradingSetSchemaText());
process.stdout.write(`wrote ${GRADING_SET_SCHEMA_PATH}\n`);

const grading = join(root, 'docs', 'grading.md');
const withKinds = withAnswerKindsTable(readFileSync(grading, 'utf8'));
if (withKinds === undefined)
  stopWith(`${grading} has lost its generated:answer-kinds markers; put them back around the table of answer kinds.`);
writeFileSync(grading, withKinds);
process.stdout.write(`wrote the answer kinds of ${grading}\n`);

writeFileSync(join(root, WORLD_SCHEMA_PATH), worldSchemaText());
process.stdout.write(`wrote ${WORLD_SCHEMA_PATH}\n`);

const generateDoc = join(root, 'docs', 'generate.md');
const withWorld = withWorldTables(readFileSync(generateDoc, 'utf8'));
if (withWorld === undefined)
  stopWith(`${generateDoc} has lost a pair of generated:world-keys / generated:world-presets markers; put them back.`);
writeFileSync(generateDoc, withWorld);
process.stdout.write(`wrote the world spec's keys and presets of ${generateDoc}\n`);
