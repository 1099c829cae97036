/**
 * Where a request body stops being JSON (RFC 8259), said in our words. `JSON.parse`'s own message
 * is V8's ("Expected double-quoted property name in JSON at position 135", and for some errors a
 * quoted slice of the body): it changes between Node versions and echoes what was sent. This scan
 * runs only after `JSON.parse` has refused a body, and reports the first problem as what was
 * expected and where (line and column, both from 1), never the text itself.
 */

export interface JsonSyntaxProblem {
  /** What is wrong, e.g. "',' or '}' was expected". */
  problem: string;
  line: number;
  column: number;
}

type State = 'value' | 'firstValue' | 'key' | 'firstKey' | 'colon' | 'after' | 'done';

const EXPECTED: Record<Exclude<State, 'after' | 'done'>, string> = {
  value: 'a value (object, array, string, number, true, false or null) was expected',
  firstValue: 'a value or the closing ] was expected',
  key: 'a property name in double quotes was expected',
  firstKey: 'a property name in double quotes or the closing } was expected',
  colon: "':' was expected after the property name",
};

const WHITESPACE = new Set([' ', '\t', '\n', '\r']);
const ESCAPES = new Set(['"', '\\', '/', 'b', 'f', 'n', 'r', 't']);
const LITERALS = ['true', 'false', 'null'] as const;
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/**
 * The first syntax problem of `text`, or null when it is valid JSON. Iterative (an explicit stack
 * of open containers), so a body of a million `[` cannot overflow the call stack.
 */
export function findJsonSyntaxProblem(text: string): JsonSyntaxProblem | null {
  const stack: ('{' | '[')[] = [];
  let state = 'value' as State;
  let i = 0;
  const fail = (problem: string, at = i) => ({ problem, ...lineAndColumn(text, at) });
  const valueDone = () => {
    state = stack.length > 0 ? 'after' : 'done';
  };

  for (;;) {
    while (i < text.length && WHITESPACE.has(text[i] as string)) i++;
    if (i >= text.length) return state === 'done' ? null : fail('the body ends before the JSON is complete');
    const c = text[i] as string;
    switch (state) {
      case 'done':
        return fail('the JSON value is followed by more text');
      case 'colon':
        if (c !== ':') return fail(EXPECTED.colon);
        i++;
        state = 'value';
        continue;
      case 'after': {
        const open = stack.at(-1);
        if (c === ',') {
          i++;
          state = open === '{' ? 'key' : 'value';
        } else if ((c === '}' && open === '{') || (c === ']' && open === '[')) {
          i++;
          stack.pop();
          valueDone();
        } else {
          return fail(open === '{' ? "',' or '}' was expected" : "',' or ']' was expected");
        }
        continue;
      }
      case 'firstKey':
      case 'key':
        if (state === 'firstKey' && c === '}') {
          i++;
          stack.pop();
          valueDone();
          continue;
        }
        if (c !== '"') return fail(EXPECTED[state]);
        {
          const end = scanString(text, i);
          if (typeof end !== 'number') return fail(end.problem, end.at);
          i = end;
        }
        state = 'colon';
        continue;
      case 'firstValue':
        if (c === ']') {
          i++;
          stack.pop();
          valueDone();
          continue;
        }
        break;
      case 'value':
        break;
    }
    // A value is expected here (state 'value' or 'firstValue').
    if (c === '{' || c === '[') {
      stack.push(c);
      i++;
      state = c === '{' ? 'firstKey' : 'firstValue';
      continue;
    }
    if (c === '"') {
      const end = scanString(text, i);
      if (typeof end !== 'number') return fail(end.problem, end.at);
      i = end;
      valueDone();
      continue;
    }
    if (c === '-' || (c >= '0' && c <= '9')) {
      NUMBER.lastIndex = i;
      const match = NUMBER.exec(text);
      if (!match) return fail('a number is malformed');
      i += match[0].length;
      valueDone();
      continue;
    }
    const literal = LITERALS.find((word) => text.startsWith(word, i));
    if (!literal) return fail(EXPECTED[state === 'firstValue' ? 'firstValue' : 'value']);
    i += literal.length;
    valueDone();
  }
}

/** The index after the string opening at `start`, or what is wrong inside it and where. */
function scanString(text: string, start: number): number | { problem: string; at: number } {
  let i = start + 1;
  while (i < text.length) {
    const code = text.charCodeAt(i);
    if (code === 0x22) return i + 1;
    if (code < 0x20) {
      return {
        problem: 'a string holds a control character (such as a line break) that must be escaped',
        at: i,
      };
    }
    if (code === 0x5c) {
      const escaped = text[i + 1];
      if (escaped === 'u') {
        if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) {
          return { problem: 'a string holds a \\u escape without four hex digits', at: i };
        }
        i += 6;
        continue;
      }
      if (escaped === undefined || !ESCAPES.has(escaped)) {
        return { problem: 'a string holds a backslash that starts no valid escape', at: i };
      }
      i += 2;
      continue;
    }
    i++;
  }
  return { problem: 'a string is not closed (a double quote is missing)', at: start };
}

function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: offset - lineStart + 1 };
}
