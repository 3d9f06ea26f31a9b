/**
 * The page's configuration is the server's, picked: each field the two share is declared once (in
 * lib/config.server.ts's AppConfig) and carried over by name, and nothing else of the server's
 * configuration reaches the page.
 */
import fs from 'node:fs';
import ts from 'typescript';
import { afterEach, describe, expect, it, vi } from 'vitest';

afterEach(() => {
  vi.unstubAllEnvs();
  vi.resetModules();
});

/** The fields (name and declared type, as written) a type alias's own object literals declare in a source file. */
function declaredFields(file: string, typeName: string): string[] {
  const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const fields: string[] = [];
  const visit = (node: ts.Node, depth: number) => {
    if (depth >= 0 && ts.isTypeLiteralNode(node)) depth += 1;
    if (depth === 1 && ts.isPropertySignature(node) && ts.isIdentifier(node.name) && node.type) fields.push(`${node.name.text}: ${node.type.getText(source).replace(/\s+/g, ' ')}`);
    ts.forEachChild(node, (child) => visit(child, ts.isTypeAliasDeclaration(node) && node.name.text === typeName ? 0 : depth));
  };
  visit(source, -1);
  return fields;
}

describe('the configuration the page gets', () => {
  it('declares none of the server configuration’s fields again (same name, same type): it picks them', () => {
    const server = declaredFields('lib/config.server.ts', 'AppConfig');
    expect(server).toContain('pyodideIndexPath: string');
    const page = declaredFields('lib/client-config.ts', 'ClientConfig');
    expect(page.filter((field) => server.includes(field))).toEqual([]);
  });

  it('carries each picked field’s value as the server has it, and no secret, whatever the values say', async () => {
    const odd = "https://mirror.例え.example/a path/'quoted'\"/\n";
    vi.stubEnv('PYODIDE_PACKAGE_BASE_URL', 'https://mirror.example/pyodide/');
    vi.stubEnv('RUNPAD_R_PACKAGE_REPO_URL', 'https://r.example/repo ünïcode/');
    vi.stubEnv('AUTH_SECRET', `secret-${'x'.repeat(40)}-${odd.trim()}`);
    vi.stubEnv('RUNPAD_STEP_BUDGET', '7');
    const { getConfig } = await import('./config.server');
    const { getClientConfig } = await import('./client-config.server');
    const { CLIENT_CONFIG_FIELDS } = await import('./client-config');
    const server = getConfig();
    const page = getClientConfig();
    for (const field of CLIENT_CONFIG_FIELDS) expect(page[field]).toEqual(server[field]);
    expect(page.stepBudget).toBe(7);
    const json = JSON.stringify(page);
    expect(json).not.toContain('secret-');
    // Besides the picked fields, only what the page needs of the models, and the version.
    expect(Object.keys(page).sort()).toEqual([...CLIENT_CONFIG_FIELDS, 'modelLabel', 'isDemo', 'models', 'defaultModelId', 'version'].sort());
    for (const choice of page.models) expect(Object.keys(choice).sort()).toEqual(['contextTokens', 'id', 'images', 'label', 'provider', 'tools']);
  });
});
