import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../server/config';

describe('DEMO_HISTORY', () => {
  it('loads the demo with its year of history unless it says off', () => {
    expect(loadConfig({}).demoHistory).toBe(true);
    expect(loadConfig({ DEMO_HISTORY: 'on' }).demoHistory).toBe(true);
    expect(loadConfig({ DEMO_HISTORY: ' off ' }).demoHistory).toBe(false);
  });
  it('stops the start in words on anything but on or off', () => {
    expect(() => loadConfig({ DEMO_HISTORY: 'no' })).toThrow('DEMO_HISTORY: "no" is neither on nor off.');
  });
});
