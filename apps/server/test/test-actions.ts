import fs from 'node:fs';
import { actionParams, catalogue, defineAction, result, type ActionDef, type UploadRule } from '@sunwatch/protocol';
import { z } from 'zod';
import type { ActionHandler, ActionInput, HandlerMap, UploadedFile } from '../src/http/registry.js';
import { handlers } from '../src/modules/index.js';

/** What the echo actions answer: the parameters the handler saw (without sign, salt, token) and the files. */
export interface EchoDat {
  params: Record<string, unknown>;
  files: Array<Omit<UploadedFile, 'path'> & { path: string; bytes: number }>;
}

/**
 * Test-only catalogue entries, installed at run time into this test file's copy of the catalogue
 * and handler map (vitest isolates test files): read and write echo actions, and upload actions
 * with the spec's limits. No production code knows them.
 */
export const TEST_ACTIONS: Record<string, ActionDef> = {
  testEchoRead: defineAction({
    name: 'testEchoRead',
    summary: 'test: echoes its parameters',
    params: actionParams({ a: z.string().optional(), b: z.string().optional(), plantid: z.string().optional() }),
    access: { auth: 'signed', permission: null },
    mutates: false,
    result: result<EchoDat>(),
  }),
  testEchoWrite: defineAction({
    name: 'testEchoWrite',
    summary: 'test: echoes its parameters, declared as changing state',
    params: actionParams({ a: z.string().optional(), b: z.string().optional(), plantid: z.string().optional() }),
    access: { auth: 'signed', permission: null },
    mutates: true,
    result: result<EchoDat>(),
  }),
};

/** Adds an upload action with the given rule (e.g. UPLOAD_RULES.upgradeFirmware). */
export function uploadAction(name: string, upload: UploadRule, mutates = true): ActionDef {
  return defineAction({
    name,
    summary: 'test: upload',
    params: actionParams({ firmwareName: z.string().optional() }),
    access: { auth: 'signed', permission: null },
    mutates,
    upload,
    result: result<EchoDat>(),
  });
}

/** Echo handler: parameters without the sign envelope, files with their size on disk. */
export const echoHandler = (input: ActionInput<never>): Promise<EchoDat> => {
  const params = { ...(input.params as Record<string, unknown>) };
  delete params.sign;
  delete params.salt;
  delete params.token;
  return Promise.resolve({
    params,
    files: input.call.files.map((f) => ({ ...f, bytes: fs.statSync(f.path).size })),
  });
};

/** Installs test actions into the catalogue and the server's handler map; returns the remover. */
export function installTestActions(
  defs: ActionDef[],
  handler: (input: ActionInput<never>) => Promise<unknown> = echoHandler,
): () => void {
  const cat = catalogue as unknown as Record<string, ActionDef>;
  const map = handlers as unknown as Record<string, ActionHandler<never> | undefined>;
  for (const def of defs) {
    cat[def.name] = def;
    map[def.name] = handler as unknown as ActionHandler<never>;
  }
  return () => {
    for (const def of defs) {
      delete cat[def.name];
      delete map[def.name];
    }
  };
}

export type { HandlerMap };
