/**
 * One planted secret of each kind the built-in detectors know (src/secrets/detectors.ts): the corpora's
 * SECRET_IN_SESSION cases and the detectors' tests use the same values. None is a live credential.
 */
export const PLANTED: Record<string, string> = {
  'pem-private-key':
    '-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIJ1hsZ3v/VpguoRK9JLsLMREScVpezJpGXA7rAMcrn9g\n' +
    '-----END PRIVATE KEY-----',
  jwt: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U',
  'api-key': 'xai-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789',
  'auth-header': `Authorization: Bearer ${'t0k3n'.repeat(5)}`,
  'cookie-header': 'Cookie: session=abcdef0123456789',
  assignment: `OPENAI_API_KEY=${'q'.repeat(40)}`,
  'uri-password': 'postgres://deploy:Pg7sQ2xVb9LmW4rT@db.internal',
  password: 'password=Hx8vK2pQ7zL4mN9w',
};
