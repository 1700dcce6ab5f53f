// The browser tests' Jest environment: Node's, which also marks on the test's global whether the running test (or
// a hook) has failed, so the failure dump (./failureDump.ts) writes what each open window showed at that moment.
import NodeEnvironment from 'jest-environment-node';
import type { Circus } from '@jest/types';

export const FAILED_FLAG = '__qupmTestFailed';

export default class BrowserTestEnvironment extends NodeEnvironment {
  handleTestEvent(event: Circus.Event): void {
    if (event.name === 'test_start') this.global[FAILED_FLAG] = false;
    if (event.name === 'test_fn_failure' || event.name === 'hook_failure') this.global[FAILED_FLAG] = true;
  }
}
