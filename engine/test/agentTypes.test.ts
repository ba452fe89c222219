/**
 * The published types of agent.d.ts are the engine's own: tsc (npm run typecheck) fails this file
 * when they differ, and the test checks the package ships the file.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type * as Published from '../../agent';
import type { AgentFactory, AgentModuleContext } from '../src/adapters/moduleAgent';
import type { AgentAdapter, AgentMessage, AgentStatus, SendOptions } from '../src/protocol/agent';
import { ROOT } from './helpers';

/** Exactly the same type: an optional member one side lacks, or a different modifier, makes them differ. */
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const same: [
  Same<Published.AgentAdapter, AgentAdapter>,
  Same<Published.AgentMessage, AgentMessage>,
  Same<Published.AgentStatus, AgentStatus>,
  Same<Published.SendOptions, SendOptions>,
  Same<Published.AgentModuleContext, AgentModuleContext>,
  Same<Published.AgentFactory, AgentFactory>,
] = [true, true, true, true, true, true];

test("agent.d.ts is the engine's adapter interface, and the package ships it", () => {
  assert.deepEqual(same, [true, true, true, true, true, true]);
  const files = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { files: string[] }).files;
  assert.ok(files.includes('agent.d.ts') && files.includes('examples'));
});
