import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { SettingsDialog } from './settings-dialog';

/** Settings as the server renders them (this browser's saved settings are not read there: the defaults). */
function settings(props: { operatorModelSees: 'outputs' | 'schema'; signedIn: boolean }): string {
  return renderToStaticMarkup(createElement(SettingsDialog, { open: true, onClose: () => undefined, maxTimeoutMs: 60_000, version: '1.0.0', ...props }));
}

/** The checkbox of "Send the model only the shape of my data", as rendered. */
function shapeCheckbox(html: string): string {
  const label = html.split('<label').find((part) => part.includes('Send the model only the shape of my data'));
  expect(label).toBeDefined();
  return /<input[^>]*>/.exec(label!)![0];
}

describe('Settings agree with the operator and with who is signed in', () => {
  it('under RUNPAD_MODEL_SEES=schema the shape-only setting is on, cannot be turned off, and says the operator set it', () => {
    const html = settings({ operatorModelSees: 'schema', signedIn: false });
    const box = shapeCheckbox(html);
    expect(box).toMatch(/\bchecked=""/);
    expect(box).toMatch(/\bdisabled=""/);
    expect(html).toContain('The operator of this Runpad set this for every conversation');
  });

  it('under outputs it is the person’s own choice, off until they turn it on', () => {
    const box = shapeCheckbox(settings({ operatorModelSees: 'outputs', signedIn: false }));
    expect(box).not.toMatch(/\bchecked=""/);
    expect(box).not.toMatch(/\bdisabled=""/);
  });

  it.each([['schema' as const], ['outputs' as const]])('a signed-in person is never told to sign in (operator: %s); a guest is', (operatorModelSees) => {
    expect(settings({ operatorModelSees, signedIn: true })).not.toMatch(/sign in/i);
    expect(settings({ operatorModelSees, signedIn: false })).toMatch(/sign in/i);
  });
});
