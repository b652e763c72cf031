/**
 * SANDBOX_*: one catalog entry per code, shared by the check inside a session (session-policy) and the checks over
 * a tree of sessions that formats with recorded profiles supply (along fork and sub-agent edges, and between
 * captures). Codes are API: add, never rename.
 */
import type { CodeInfo } from '../model/finding.js';

export const SANDBOX_CODES = {
  SANDBOX_WIDENED: {
    severity: 'error',
    title: 'A session runs with more access than the session it came from (or than it started with)',
    help:
      'A fork, sub-agent, worktree session, or a later capture of the same session records a sandbox profile that ' +
      'grants more than its origin in some dimension (filesystem read, filesystem write, child network, approvals, a ' +
      'deny list), or one that is incomparable with it; or, inside one session, a turn runs under a policy that ' +
      'grants ' +
      'more than the one the session started with, or one call runs beyond the policy in force. It is reported where ' +
      'it first appears, with what it gains. Graded by who widened and how far: inheritance wider than the origin is ' +
      "an error; a switch inside a session that the agent recorded as the user's own choice is a warning that says " +
      'so, unless it reaches the unrestricted level (no sandbox, nothing asks before running), which is an error; ' +
      'one call beyond the policy is an error. Check what ran under the wider policy.',
  },
  SANDBOX_DROPPED: {
    severity: 'error',
    title: 'The origin recorded a sandbox profile, the descendant records none',
    help:
      'Without a recorded profile, a resume of the descendant runs under whatever the agent falls back to, instead ' +
      'of ' +
      "the origin's profile.",
  },
  SANDBOX_CHANGED: {
    severity: 'warning',
    title: 'The recorded sandbox profile changed (not wider)',
    help:
      'The descendant (or a later capture) records a different profile that is not wider: narrower, or not ' +
      "comparable because a custom profile's definition was not supplied. Inside one session, a turn whose policy " +
      'differs from the one before without granting more than the session started with (a planning or read-only ' +
      'mode, a narrower approval policy, or a return to the starting policy) is a note.',
  },
  SANDBOX_PROFILE_MISSING: {
    severity: 'note',
    title: 'No sandbox profile recorded',
    help: "The session records no sandbox profile: a resume falls back to the agent's defaults.",
  },
  SANDBOX_PROFILE_UNKNOWN: {
    severity: 'note',
    title: 'A custom sandbox profile whose definition was not supplied',
    help: 'The profile is a custom name; without its definition it can only be compared by name.',
  },
} as const satisfies Record<string, CodeInfo>;
