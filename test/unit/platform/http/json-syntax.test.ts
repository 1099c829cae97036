import { describe, expect, it } from 'vitest';
import { findJsonSyntaxProblem } from '#shared/platform/http/json-syntax.ts';

describe('findJsonSyntaxProblem', () => {
  it.each(['{}', '[]', ' {"a": [1, -2.5e+3, 0, true, false, null, "x\\n\\u00e9\\"", {}]} ', '"text"', '42'])(
    'finds nothing wrong in valid JSON: %s',
    (text) => {
      expect(() => JSON.parse(text)).not.toThrow();
      expect(findJsonSyntaxProblem(text)).toBeNull();
    },
  );

  it.each([
    [
      'an unquoted property name',
      '{\n  "a": 1,\n  b: 2\n}',
      'a property name in double quotes was expected',
      3,
      3,
    ],
    ['single quotes', "{'name':'a'}", 'a property name in double quotes or the closing } was expected', 1, 2],
    ['a missing comma', '{"a": 1 "b": 2}', "',' or '}' was expected", 1, 9],
    [
      'a trailing comma in a list',
      '[1, 2, ]',
      'a value (object, array, string, number, true, false or null) was expected',
      1,
      8,
    ],
    ['a missing colon', '{"a" 1}', "':' was expected after the property name", 1, 6],
    ['an unclosed list', '[1, 2', 'the body ends before the JSON is complete', 1, 6],
    ['a cut-off body', '{"name":', 'the body ends before the JSON is complete', 1, 9],
    ['text after the value', '{"a":1} trailing', 'the JSON value is followed by more text', 1, 9],
    ['NaN', 'NaN', 'a value (object, array, string, number, true, false or null) was expected', 1, 1],
    ['an unclosed string', '{"a": "abc}', 'a string is not closed (a double quote is missing)', 1, 7],
    [
      'a raw line break in a string',
      '{"a": "x\ny"}',
      'a string holds a control character (such as a line break) that must be escaped',
      1,
      9,
    ],
    ['a bad escape', '["\\x41"]', 'a string holds a backslash that starts no valid escape', 1, 3],
    ['a short unicode escape', '["\\u12"]', 'a string holds a \\u escape without four hex digits', 1, 3],
    ['a bare minus', '[-]', 'a number is malformed', 1, 2],
    ['a misspelt literal', '[tru]', 'a value or the closing ] was expected', 1, 2],
  ])('says where %s is, and what was expected there', (_case, text, problem, line, column) => {
    expect(() => JSON.parse(text)).toThrow();
    expect(findJsonSyntaxProblem(text)).toEqual({ problem, line, column });
  });

  it('never echoes the body: the problem is one of our own sentences', () => {
    const secret = '{"api_key": "svc_live_SECRET", oops}';
    const found = findJsonSyntaxProblem(secret);
    expect(found?.problem).not.toMatch(/SECRET|oops|api_key/);
  });

  it('scans a very deep body without overflowing the stack', () => {
    expect(findJsonSyntaxProblem('['.repeat(1_000_000))).toEqual({
      problem: 'the body ends before the JSON is complete',
      line: 1,
      column: 1_000_001,
    });
  });
});
