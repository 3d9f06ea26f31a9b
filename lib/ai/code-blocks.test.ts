/**
 * Tests for fenced code blocks in a streaming answer: CommonMark fence rules, and the property
 * the runner relies on, that a block once returned for a prefix never changes or disappears.
 */
import { describe, expect, it } from 'vitest';
import { TARGET_LIST } from '@/lib/targets/registry';
import { blockTarget, completeCodeBlocks, type CodeBlock } from './code-blocks.server';

const codes = (text: string, options?: { final?: boolean }) => completeCodeBlocks(text, options).map((b) => [b.target, b.code]);

/**
 * Feeds the text one character at a time. Every prefix must hold exactly the blocks of the whole
 * text whose closing line ending has arrived: earlier ones never change, later ones are absent.
 */
function feedCharByChar(text: string): CodeBlock[] {
  const whole = completeCodeBlocks(text, { final: true });
  let previous: CodeBlock[] = [];
  for (let i = 0; i <= text.length; i++) {
    const blocks = completeCodeBlocks(text.slice(0, i));
    const expected = whole.filter((block) => block.end < i);
    if (JSON.stringify(blocks) !== JSON.stringify(expected) || JSON.stringify(blocks.slice(0, previous.length)) !== JSON.stringify(previous)) {
      throw new Error(`prefix ${i} of ${JSON.stringify(text)}:\n got ${JSON.stringify(blocks)}\n expected ${JSON.stringify(expected)}`);
    }
    previous = blocks;
  }
  return whole;
}

const FIXTURE = [
  'Let me load the data first.',
  '',
  '```python',
  'import pandas as pd',
  'df = pd.DataFrame({"a": [1, 2]})',
  '```',
  'Here is how you would write it in a README:',
  '````markdown',
  '```python',
  'print("not run")',
  '```',
  '````',
  '~~~SQL  -- totals',
  'SELECT sum(a) FROM df',
  '```',
  '~~~',
  '```ruby',
  '```python',
  'puts "not run either"',
  '```',
  '  ```dot',
  '  digraph { a -> b }',
  '  ```',
  '````py title="x.py"',
  's = """',
  '```',
  '"""',
  '`````',
  'Done.',
  '',
].join('\n');

describe('completeCodeBlocks', () => {
  it('finds nothing in text without blocks', () => {
    expect(completeCodeBlocks('')).toEqual([]);
    expect(completeCodeBlocks('Just prose, with `inline` code and ``double`` ticks.\n\n- a list\n', { final: true })).toEqual([]);
  });

  it('returns a block with its language, code and offsets', () => {
    const text = 'Intro\n```python\nx = 1\nprint(x)\n```\nOutro\n';
    const [block, ...rest] = completeCodeBlocks(text);
    expect(rest).toEqual([]);
    expect(block).toEqual({ index: 0, target: 'python', code: 'x = 1\nprint(x)', start: 6, end: 34 });
    expect(text.slice(block.start, block.end)).toBe('```python\nx = 1\nprint(x)\n```');
  });

  it('returns a block only once its closing line has ended, at every prefix', () => {
    const text = '```python\nx = 1\n```\n';
    for (let i = 0; i < text.length; i++) expect(completeCodeBlocks(text.slice(0, i))).toEqual([]);
    expect(codes(text)).toEqual([['python', 'x = 1']]);
    // "``" and "```" with more to come could still become "```" or "````"/"```py".
    expect(completeCodeBlocks('```python\nx = 1\n```')).toEqual([]);
  });

  it('counts an unterminated closing fence only when the text is final', () => {
    expect(codes('```python\nx = 1\n```', { final: true })).toEqual([['python', 'x = 1']]);
    expect(codes('```python\nx = 1\n```  ', { final: true })).toEqual([['python', 'x = 1']]);
    expect(codes('```python\nx = 1\n``', { final: true })).toEqual([]);
    expect(codes('```python\nx = 1\n```x', { final: true })).toEqual([]);
  });

  it('never returns an unclosed block, even in a final text', () => {
    expect(codes('```python\nx = 1\n', { final: true })).toEqual([]);
    expect(codes('```python\nx = 1', { final: true })).toEqual([]);
    expect(codes('```python', { final: true })).toEqual([]);
    expect(codes('```python\na\n```\n```sql\nSELECT 1\n', { final: true })).toEqual([['python', 'a']]);
  });

  it('is prefix-stable on a fixture fed character by character', () => {
    expect(feedCharByChar(FIXTURE).map((b) => [b.index, b.target, b.code])).toEqual([
      [0, 'python', 'import pandas as pd\ndf = pd.DataFrame({"a": [1, 2]})'],
      [1, 'sql', 'SELECT sum(a) FROM df\n```'],
      [2, 'graphviz', 'digraph { a -> b }'],
      [3, 'python', 's = """\n```\n"""'],
    ]);
  });

  it('is prefix-stable on the fixture with CRLF and with lone CR line endings', () => {
    const lf = feedCharByChar(FIXTURE).map((b) => b.code);
    expect(feedCharByChar(FIXTURE.replaceAll('\n', '\r\n')).map((b) => b.code)).toEqual(lf);
    expect(feedCharByChar(FIXTURE.replaceAll('\n', '\r')).map((b) => b.code)).toEqual(lf);
  });

  it('is prefix-stable on generated documents', () => {
    // A small seeded generator (mulberry32): the same documents on every run.
    let seed = 20240611;
    const random = () => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    const pick = <T,>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
    const lines = ['```python', '```', '````', '````markdown', '~~~sql', '~~~', '  ```py', '    ```', '```ruby', 'x = 1', '', '```a`b', '   ~~~~ dot', '``', '``` ', '```dot'];
    const endings = ['\n', '\n', '\n', '\r\n', '\r'];
    let found = 0;
    for (let doc = 0; doc < 300; doc++) {
      const count = 1 + Math.floor(random() * 14);
      let text = '';
      for (let i = 0; i < count; i++) text += pick(lines) + (i < count - 1 || random() < 0.5 ? pick(endings) : '');
      found += feedCharByChar(text).length;
    }
    // The generator must actually produce blocks, or the property says nothing.
    expect(found).toBeGreaterThan(50);
  });

  it('keeps a shorter fence inside a longer one as content', () => {
    expect(codes('````markdown\n```python\nprint(1)\n```\n````\n')).toEqual([]);
    expect(codes('````python\nmd = """\n```\n```sql\n"""\n````\n')).toEqual([['python', 'md = """\n```\n```sql\n"""']]);
    // A longer closing fence closes.
    expect(codes('```python\nx\n`````\n')).toEqual([['python', 'x']]);
  });

  it('reads a fence with an info string as content, not as a closing fence', () => {
    expect(codes('```\n```python\nx\n```\n')).toEqual([]);
    expect(codes('```python\nx\n```python\ny\n```\n')).toEqual([['python', 'x\n```python\ny']]);
  });

  it('handles tilde fences, which backtick lines do not close', () => {
    expect(codes('~~~python\na = "```"\n```\n~~~\n')).toEqual([['python', 'a = "```"\n```']]);
    expect(codes('```sql\nSELECT 1\n~~~\n```\n')).toEqual([['sql', 'SELECT 1\n~~~']]);
    // Only backtick fences forbid backticks in the info string.
    expect(codes('~~~ python `x`\nx\n~~~~\n')).toEqual([['python', 'x']]);
  });

  it('reads a backtick line whose info string has a backtick as text, not a fence', () => {
    expect(codes('```a`b\n```python\nx\n```\n')).toEqual([['python', 'x']]);
    expect(codes('``` py`thon\nprint(1)\n```\n')).toEqual([]);
  });

  it('skips unknown languages and untagged blocks without misreading their content', () => {
    expect(codes('```ruby\n```python\nconsole.log(1)\n```\n```python\nx\n```\n')).toEqual([['python', 'x']]);
    expect(codes('```\n~~~python\nnot run\n~~~\n```\n')).toEqual([]);
    expect(completeCodeBlocks('```text\n```\n```sql\nSELECT 1\n```\n')[0].index).toBe(0);
  });

  it('removes the opening fence indentation from the content', () => {
    expect(codes('  ```python\n  x = 1\n    y = 2\n z = 3\nw\n   ```\n')).toEqual([['python', 'x = 1\n  y = 2\nz = 3\nw']]);
    expect(codes('   ~~~sql\n      SELECT 1\n~~~\n')).toEqual([['sql', '   SELECT 1']]);
  });

  it('does not read 4 spaces or a tab of indentation as a fence', () => {
    expect(codes('    ```python\n    x = 1\n    ```\n')).toEqual([]);
    expect(codes('\t```python\nx\n```\n')).toEqual([]);
    expect(codes('```python\nx\n    ```\n```\n')).toEqual([['python', 'x\n    ```']]);
  });

  it('allows spaces and tabs, and nothing else, after a closing fence', () => {
    expect(codes('```python\nx\n```  \t\n')).toEqual([['python', 'x']]);
    expect(codes('```python\nx\n``` .\n```\n')).toEqual([['python', 'x\n``` .']]);
  });

  it('reads the first word of the info string as the language, in any case', () => {
    expect(codes('```python title="x"\na\n```\n```   SQLite extra words\nb\n```\n```GraphViz\nc\n```\n')).toEqual([
      ['python', 'a'],
      ['sql', 'b'],
      ['graphviz', 'c'],
    ]);
  });

  it('handles CRLF line endings, without \\r in the code', () => {
    const text = 'Hi\r\n```python\r\nx = 1\r\ny = 2\r\n```\r\n';
    const [block] = completeCodeBlocks(text);
    expect(block.code).toBe('x = 1\ny = 2');
    expect(text.slice(block.start, block.end)).toBe('```python\r\nx = 1\r\ny = 2\r\n```');
    // The block is complete at the "\r", and the "\n" that follows does not change it.
    expect(completeCodeBlocks(text.slice(0, -1))).toEqual([block]);
  });

  it('returns an empty block with empty code, and drops trailing blank lines', () => {
    expect(completeCodeBlocks('```python\n```\n')).toEqual([{ index: 0, target: 'python', code: '', start: 0, end: 13 }]);
    expect(codes('```sql\n\n  \n```\n')).toEqual([['sql', '']]);
    expect(codes('```python\n\nx = 1\n\n\n```\n')).toEqual([['python', '\nx = 1']]);
  });

  it('returns two adjacent blocks, indexed in order', () => {
    const blocks = completeCodeBlocks('```python\na = 1\n```\n```sql\nSELECT 1\n```\n');
    expect(blocks.map((b) => [b.index, b.target, b.code])).toEqual([
      [0, 'python', 'a = 1'],
      [1, 'sql', 'SELECT 1'],
    ]);
    expect(blocks[1].start).toBe(blocks[0].end + 1);
  });
});

describe('blockTarget', () => {
  it('runs every block tag of the registry as its target, and nothing else', () => {
    for (const target of TARGET_LIST) for (const tag of target.blockTags) expect(blockTarget(tag)).toBe(target.id);
  });

  it.each([
    ['python', 'python'],
    ['py', 'python'],
    ['Python3', 'python'],
    ['sql', 'sql'],
    ['sqlite', 'sql'],
    ['DuckDB', 'sql'],
    ['dot', 'graphviz'],
    ['graphviz', 'graphviz'],
    ['gv', 'graphviz'],
    ['  py  title="a.py"', 'python'],
    ['sql\tquery', 'sql'],
  ])('maps %j to %s', (info, language) => {
    expect(blockTarget(info)).toBe(language);
  });

  it.each(['', '   ', 'ruby', 'pythonic', 'py3', 'python{.class}', 'mermaid', 'constructor', 'toString', '__proto__'])('leaves %j alone', (info) => {
    expect(blockTarget(info)).toBeNull();
  });
});
