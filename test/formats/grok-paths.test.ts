import { expect, test } from 'vitest';
import { decodeCwdDirname, encodeCwdDirname, isHashedDirname, urlencode } from '../../src/formats/grok/paths.js';

test.each([
  ['/Users/foo/project', '%2FUsers%2Ffoo%2Fproject'],
  ['/Users/user/Documents/project-名前', '%2FUsers%2Fuser%2FDocuments%2Fproject-%E5%90%8D%E5%89%8D'],
  ["/a b/c!d'e(f)g*h~i.j_k-l", '%2Fa%20b%2Fc%21d%27e%28f%29g%2Ah~i.j_k-l'],
  [
    '/Users/dev/Documents/開発プロジェクト/機能追加/テスト環境/ソースコード/main-branch',
    'main-branch-6aaeefdde2a621aa',
  ],
  [`/Users/test/${'中'.repeat(30)}`, 'workspace-43f12fb9a5ee1037'],
  [`/home/u/${'x'.repeat(250)}/My_Project.v2 (copy)`, 'my-project-v2-copy-05b82ea7b55ae776'],
])('encode_cwd_dirname(%s)', (cwd, name) => {
  expect(encodeCwdDirname(cwd)).toBe(name);
});

test('the 255-byte threshold counts encoded bytes', () => {
  expect(encodeCwdDirname(`/${'a'.repeat(252)}`)).toBe(urlencode(`/${'a'.repeat(252)}`));
  expect(isHashedDirname(encodeCwdDirname(`/${'a'.repeat(253)}`))).toBe(true);
});

test('decoding: URL form, else the .cwd file', () => {
  expect(decodeCwdDirname('%2Fhome%2Fdev%2Fproj')).toBe('/home/dev/proj');
  expect(decodeCwdDirname('main-branch-6aaeefdde2a621aa', '/long/cwd\n')).toBe('/long/cwd');
  expect(decodeCwdDirname('main-branch-6aaeefdde2a621aa')).toBeUndefined();
});
