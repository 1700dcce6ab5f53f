// Testing Library's waits (findBy…, waitFor) default to 1 s, a timed assertion in disguise: on a loaded two-core CI
// machine a lazily loaded screen took longer, and routes.test failed while nothing was wrong. Like Jest's own
// testTimeout (jest.config.ts), this bound only stops a wait for something that never comes.
import { configure } from '@testing-library/dom';

configure({ asyncUtilTimeout: 10_000 });
