// Service-worker health (spec §4): worker restarts the app triggered, errors, controller changes
// and the monitor's uptime, the last HEALTH_CHECK, and how this start of the app was classified. The assessment
// is derived (assessHealth), never stored. Times are epoch milliseconds.
import { createSelector, createSlice } from '@reduxjs/toolkit';
import type { PayloadAction } from '@reduxjs/toolkit';
import { SW_ASSESSMENT_MIN_UPTIME_MS, SW_RESTART_WINDOW_MS } from '@/timings';
import type { WorkerPushCounts } from '@/protocol/messages';
import { serviceWorkerRegistrationFailed } from './appSlice';

/** spec §4: more than 60 s since the last start is a restart, otherwise a quick resume. */
export type StartupKind = 'restart' | 'quickResume';
export type HealthCheckStatus = 'idle' | 'checking' | 'answered' | 'failed';
/** 'pending' until the monitor has run for spec §4's 5 minutes. */
export type HealthAssessment = 'pending' | 'healthy' | 'concerning' | 'unhealthy';

// spec §4, each threshold is exceeded, not reached ("more than", "exceed").
/** isHealthy is false when more than 3 restarts fall within the 5-minute window. */
export const MAX_RESTARTS_IN_WINDOW = 3;
/** Unhealthy when errors exceed 5 … */
export const MAX_ERRORS = 5;
/** … or restarts per minute exceed 0.5. */
export const UNHEALTHY_RESTART_RATE = 0.5;
/** Concerning when controller changes exceed 10 … */
export const MAX_CONTROLLER_CHANGES = 10;
/** … or the restart rate exceeds 0.1 a minute. */
export const CONCERNING_RESTART_RATE = 0.1;
/** Restart times kept: more than the window can hold before it counts as unhealthy. */
const RESTART_TIMES_KEPT = 20;

export interface SwHealthState {
  /** When this page started watching the worker: uptime counts from here. */
  monitorStartedAt: number | null;
  /** The latest time the monitor looked (each check, restart, start): screens assess the health as of then. */
  observedAt: number | null;
  startup: { kind: StartupKind; at: number; sinceLastStartMs: number | null } | null;
  /** Every worker restart the app triggered since the monitor started. */
  restartCount: number;
  /** The latest restart times, for the 5-minute window: the worker's and the app's own (appRestartsCounted). */
  restartTimes: number[];
  /** The last restart the app triggered: the 30 s cooldown counts from here; null after a reset. */
  cooldownFrom: number | null;
  errors: number;
  lastError: string | null;
  controllerChanges: number;
  /** Messages from the worker that were malformed or unknown, ignored. */
  ignoredMessages: number;
  /** The worker's own counts from its last health-check answer (since the browser last started it). */
  worker: { pushes: WorkerPushCounts | null; ignoredMessages: number | null } | null;
  check: {
    status: HealthCheckStatus;
    lastAnsweredAt: number | null;
    roundTripMs: number | null;
    lastFailedAt: number | null;
  };
}

export const initialState: SwHealthState = {
  monitorStartedAt: null,
  observedAt: null,
  startup: null,
  restartCount: 0,
  restartTimes: [],
  cooldownFrom: null,
  errors: 0,
  lastError: null,
  controllerChanges: 0,
  ignoredMessages: 0,
  worker: null,
  check: { status: 'idle', lastAnsweredAt: null, roundTripMs: null, lastFailedAt: null },
};

function recordError(state: SwHealthState, error: string): void {
  state.errors += 1;
  state.lastError = error;
}

const swHealthSlice = createSlice({
  name: 'swHealth',
  initialState,
  reducers: {
    monitorStarted(state, action: PayloadAction<{ at: number }>) {
      state.monitorStartedAt = action.payload.at;
      state.observedAt = action.payload.at;
    },
    startupClassified(
      state,
      action: PayloadAction<{ kind: StartupKind; at: number; sinceLastStartMs: number | null }>,
    ) {
      state.startup = action.payload;
    },
    /**
     * spec §4: starts of the app that counted as restarts (more than 60 s after the last start), this one and
     * earlier page loads' within the window: they count in the restart window as the worker restarts the app
     * triggers do (more than 3 within 5 minutes is unhealthy). A quick resume is not one.
     */
    appRestartsCounted(state, action: PayloadAction<{ times: number[] }>) {
      const times = new Set([...state.restartTimes, ...action.payload.times]);
      state.restartTimes = [...times].sort((a, b) => a - b).slice(-RESTART_TIMES_KEPT);
      const latest = Math.max(...action.payload.times);
      if (Number.isFinite(latest)) state.observedAt = Math.max(state.observedAt ?? latest, latest);
    },
    /** Settings → about "Check now", the iOS debug menu's "test SW communication", a start after a restart. */
    healthCheckRequested() {},
    healthCheckStarted(state) {
      state.check.status = 'checking';
    },
    healthCheckAnswered(
      state,
      action: PayloadAction<{
        at: number;
        roundTripMs: number;
        worker?: { pushes: WorkerPushCounts | null; ignoredMessages: number | null };
      }>,
    ) {
      if (action.payload.worker) state.worker = action.payload.worker;
      state.check = {
        ...state.check,
        status: 'answered',
        lastAnsweredAt: action.payload.at,
        roundTripMs: action.payload.roundTripMs,
      };
      state.observedAt = action.payload.at;
    },
    healthCheckFailed(state, action: PayloadAction<{ at: number; error: string }>) {
      state.check.status = 'failed';
      state.check.lastFailedAt = action.payload.at;
      state.observedAt = action.payload.at;
      recordError(state, action.payload.error);
    },
    workerRestartStarted(state, action: PayloadAction<{ at: number }>) {
      state.restartCount += 1;
      state.restartTimes = [...state.restartTimes, action.payload.at].slice(-RESTART_TIMES_KEPT);
      state.cooldownFrom = action.payload.at;
      state.observedAt = action.payload.at;
    },
    /** A restart was due but the 30 s cooldown had not passed (spec §9). */
    workerRestartSkipped(state, action: PayloadAction<{ at: number; remainingMs: number }>) {
      state.observedAt = action.payload.at;
    },
    workerRestartFailed(state, action: PayloadAction<{ error: string }>) {
      recordError(state, action.payload.error);
    },
    /** The iOS debug menu's "reset SW cooldown": the next restart is not held back. */
    restartCooldownReset(state) {
      state.cooldownFrom = null;
    },
    controllerChanged(state) {
      state.controllerChanges += 1;
    },
    workerErrorRecorded(state, action: PayloadAction<{ error: string }>) {
      recordError(state, action.payload.error);
    },
    workerMessageIgnored(state) {
      state.ignoredMessages += 1;
    },
  },
  extraReducers: (builder) => {
    builder.addCase(serviceWorkerRegistrationFailed, (state, action) => {
      recordError(state, action.payload.message);
    });
  },
});

export const {
  monitorStarted,
  startupClassified,
  appRestartsCounted,
  healthCheckRequested,
  healthCheckStarted,
  healthCheckAnswered,
  healthCheckFailed,
  workerRestartStarted,
  workerRestartSkipped,
  workerRestartFailed,
  restartCooldownReset,
  controllerChanged,
  workerErrorRecorded,
  workerMessageIgnored,
} = swHealthSlice.actions;
export default swHealthSlice.reducer;

export interface HealthReport {
  isHealthy: boolean;
  assessment: HealthAssessment;
  uptimeMs: number;
  restartsInWindow: number;
  restartsPerMinute: number;
  restartCount: number;
  errors: number;
  controllerChanges: number;
}

const MINUTE = 60_000;

/** spec §4: the health of the worker at `now`, from the counts in state. Pure, so the thresholds test at edges. */
export function assessHealth(state: SwHealthState, now: number): HealthReport {
  const uptimeMs = state.monitorStartedAt === null ? 0 : Math.max(0, now - state.monitorStartedAt);
  const restartsInWindow = state.restartTimes.filter(
    (at) => at <= now && now - at < SW_RESTART_WINDOW_MS,
  ).length;
  const restartsPerMinute = uptimeMs > 0 ? state.restartCount / (uptimeMs / MINUTE) : 0;
  let assessment: HealthAssessment;
  if (uptimeMs < SW_ASSESSMENT_MIN_UPTIME_MS) assessment = 'pending';
  else if (state.errors > MAX_ERRORS || restartsPerMinute > UNHEALTHY_RESTART_RATE) assessment = 'unhealthy';
  else if (state.controllerChanges > MAX_CONTROLLER_CHANGES || restartsPerMinute > CONCERNING_RESTART_RATE) {
    assessment = 'concerning';
  } else assessment = 'healthy';
  return {
    isHealthy: restartsInWindow <= MAX_RESTARTS_IN_WINDOW,
    assessment,
    uptimeMs,
    restartsInWindow,
    restartsPerMinute,
    restartCount: state.restartCount,
    errors: state.errors,
    controllerChanges: state.controllerChanges,
  };
}

/** Milliseconds until the app may restart the worker again (0 when it may now). */
export function restartCooldownRemaining(state: SwHealthState, now: number, cooldownMs: number): number {
  if (state.cooldownFrom === null || now < state.cooldownFrom) return 0;
  return Math.max(0, state.cooldownFrom + cooldownMs - now);
}

interface WithSwHealth {
  swHealth: SwHealthState;
}
export const selectSwHealth = (state: WithSwHealth): SwHealthState => state.swHealth;
/** The health as of the monitor's latest look (a screen must not read the clock while rendering). */
export const selectHealthReport = createSelector([selectSwHealth], (health) =>
  assessHealth(health, health.observedAt ?? health.monitorStartedAt ?? 0),
);
