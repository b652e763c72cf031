/** Duplicate keys found in one linear pass, with the pointer of the object that repeats them. */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { duplicateKey } from '../../src/read/json-keys.js';

describe('duplicateKey', () => {
  test.each([
    ['{"a":1,"b":2,"a":3}', { key: 'a', pointer: '' }],
    ['{"a":{"k":1,"k":2}}', { key: 'k', pointer: '/a' }],
    ['{"x":[1,{"y":0},{"k":1,"k":2}]}', { key: 'k', pointer: '/x/2' }],
    ['{"a\\u0062":1,"ab":2}', { key: 'ab', pointer: '' }],
    ['{"a\\\\":1,"a\\\\":2}', { key: 'a\\', pointer: '' }],
    ['{"a" :1 , "a" : 2}', { key: 'a', pointer: '' }],
    ['{"a/b":{"~":1,"~":2}}', { key: '~', pointer: '/a~1b' }],
  ])('%s repeats a key', (text, want) => {
    expect(duplicateKey(text)).toEqual(want);
  });

  test.each([
    '{"a":1,"b":{"a":2},"c":[{"x":1},{"x":2}]}',
    '{"s":"x\\"y","t":"{\\"a\\":1,\\"a\\":2}"}',
    '{"a":"\\":","b":1}',
    '[{"a":1},{"a":1}]',
    '"{\\"a\\":1,\\"a\\":1}"',
  ])('%s does not', (text) => {
    expect(duplicateKey(text)).toBeUndefined();
  });

  test('any JSON that JSON.stringify writes has no repeated key', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        expect(duplicateKey(JSON.stringify(v))).toBeUndefined();
      }),
      { numRuns: 500 },
    );
  });

  test('a key repeated anywhere in such JSON is found, in the right object', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue(), { minKeys: 1 }), fc.string(), (obj, k) => {
        // Nest the object, then repeat one of its keys by hand.
        const inner = JSON.stringify(obj);
        const first = Object.keys(obj)[0]!;
        const text = `{"outer":[0,${inner.slice(0, -1)},${JSON.stringify(first)}:${JSON.stringify(k)}}]}`;
        expect(duplicateKey(text)).toEqual({ key: first, pointer: '/outer/1' });
      }),
      { numRuns: 500 },
    );
  });

  // A quadratic pass over these 2 MB would not end within the test's time-out.
  test('linear: two megabytes of small objects and escaped quotes', () => {
    const parts = Array.from({ length: 20_000 }, (_, i) => `{"k${i % 7}":"${'x'.repeat(20)}","n":${i}}`);
    const text = `{"list":[${parts.join(',')}],"blob":"${'\\"'.repeat(700_000)}"}`;
    expect(duplicateKey(text)).toBeUndefined();
  });
});
