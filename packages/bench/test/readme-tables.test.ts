import { describe, expect, it } from 'vitest';
import { BEGIN_MARKER, END_MARKER, withGeneratedTables } from '../src/readme-tables.js';

describe('README bench tables', () => {
  it('replaces only what lies between the markers, again and again', () => {
    const readme = `# Title\n\nbefore\n${BEGIN_MARKER}\nold table\n${END_MARKER}\nafter\n`;
    const once = withGeneratedTables(readme, '| new | table |');
    expect(once).toBe(`# Title\n\nbefore\n${BEGIN_MARKER}\n\n| new | table |\n\n${END_MARKER}\nafter\n`);
    expect(withGeneratedTables(once, '| newer |')).toBe(`# Title\n\nbefore\n${BEGIN_MARKER}\n\n| newer |\n\n${END_MARKER}\nafter\n`);
  });

  it('refuses a README without both markers in order', () => {
    expect(() => withGeneratedTables('no markers', 'x')).toThrow('README.md must hold');
    expect(() => withGeneratedTables(`${END_MARKER}\n${BEGIN_MARKER}`, 'x')).toThrow('README.md must hold');
  });
});
