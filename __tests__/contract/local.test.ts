// The port contract on the local adapter and the real embedded server (portContract.ts).
import { describePortContract } from './portContract';
import { createLocalHarness } from './support/localHarness';

describe('the local backend', () => {
  describePortContract(createLocalHarness);
});
