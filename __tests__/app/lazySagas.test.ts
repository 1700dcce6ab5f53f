// The sagas that load on demand, each through the one loader: what each waits for, what it starts with which
// arguments, and — for every chunk, including the leaving, admin and mailed-links chunks that used to fail for
// their supervisor to retry forever — a chunk that fails to load runs spec §4's recovery once and ends. A request
// that comes while a chunk loads, before its saga's watchers exist, is handled all the same.
import { expectSaga } from 'redux-saga-test-plan';
import * as matchers from 'redux-saga-test-plan/matchers';
import { throwError } from 'redux-saga-test-plan/providers';
import type { StaticProvider } from 'redux-saga-test-plan/providers';
import { call, put, takeEvery } from 'redux-saga/effects';
import type { Saga } from 'redux-saga';
import { combineReducers } from '@reduxjs/toolkit';
import type { Backend } from '@/backend/ports';
import {
  lazyAdminSaga,
  lazyAttentionSaga,
  lazyConsultantToolsSaga,
  lazyConversationPagesSaga,
  lazyConversationSaga,
  lazyDebugMenuSaga,
  lazyEmailLinksSaga,
  lazyLastKnownSaga,
  lazyLeavingSaga,
  lazyMembersSaga,
  lazyOffersSaga,
  loadAdminSaga,
  loadAttentionSagas,
  loadConsultantToolsSaga,
  loadConversationPagesSaga,
  loadConversationSagas,
  loadDebugMenu,
  loadEmailLinksSaga,
  loadLastKnownSaga,
  loadLeavingSaga,
  loadMembersSaga,
  loadOffersSaga,
} from '@/app/lazySagas';
import * as adminModule from '@/features/settings/adminSaga';
import * as consultantToolsModule from '@/features/consultantTools/consultantToolsSaga';
import * as conversationModule from '@/features/conversation/conversationSaga';
import * as emailLinksModule from '@/sagas/emailLinksSaga';
import * as membersModule from '@/sagas/membersSaga';
import * as offersModule from '@/sagas/offersSaga';
import { activeOffersRequested, issuedOffersRequested } from '@/store/offersSlice';
import { adminChannelsRequested, adminUsersRequested } from '@/features/settings/adminSlice';
import { channelCreateRequested, channelSaveDismissed } from '@/features/consultantTools/manageSlice';
import app, { started } from '@/store/appSlice';
import { debugButtonShown } from '@/store/debugSlice';
import { emailVerifyRequested, passwordResetRequested } from '@/store/emailLinksSlice';
import { membersRequested, privateChannelRequested } from '@/store/membersSlice';
import { MESSAGES_PAGE, messagesRequested } from '@/store/conversationSlice';
import user, {
  initialState as userInitialState,
  selectAuthStatus,
  signedIn as sessionBegan,
  signedOut,
} from '@/store/userSlice';
import { chunkLoadFailed } from '@/store/versionSlice';
import { createFakeBackend } from '../support/fakeBackend';

const backend = createFakeBackend() as unknown as Backend;
const appReducer = combineReducers({ app });
const environment = (platform: 'ios' | 'web') => ({
  platform,
  installed: false,
  online: true,
  deviceId: '0b6c2d2e-1f7a-4b8e-9a51-3f0f6a0f9d11',
});
const chunkError = (chunk: string) =>
  Object.assign(new Error(`Loading chunk ${chunk} failed.`), { name: 'ChunkLoadError' });

/** Runs a loader as the root's supervisor would: what it throws becomes an action a test can expect. */
function* supervised(saga: Saga, ...args: unknown[]) {
  try {
    yield call(saga, ...args);
    yield put({ type: 'test/ended' });
  } catch (error) {
    yield put({ type: 'test/failed', payload: (error as Error).message });
  }
}

/** Records each saga a chunk starts, with its arguments, and ends it. */
function recorder(started: unknown[][]) {
  return (name: string) =>
    function* recorded(...args: unknown[]) {
      yield call(() => started.push([name, ...args]));
    };
}

interface Loader {
  name: string;
  saga: Saga;
  args: unknown[];
  load: () => Promise<unknown>;
  chunk: string;
  /** What makes it load (a session under way, the slice's first request, or an iPhone), with `providers`. */
  trigger: (run: ExpectApi, providers: StaticProvider[]) => ExpectApi;
}

type ExpectApi = ReturnType<typeof expectSaga>;

const signedIn = (run: ExpectApi, providers: StaticProvider[]) =>
  run.provide([[matchers.select(selectAuthStatus), 'signedIn'], ...providers]);

const LOADERS: Loader[] = [
  {
    name: 'conversation',
    saga: lazyConversationSaga,
    args: [backend],
    load: loadConversationSagas,
    chunk: 'conversation',
    trigger: signedIn,
  },
  {
    name: 'attention',
    saga: lazyAttentionSaga,
    args: [backend],
    load: loadAttentionSagas,
    chunk: 'attention',
    trigger: signedIn,
  },
  {
    name: 'leaving',
    saga: lazyLeavingSaga,
    args: [backend],
    load: loadLeavingSaga,
    chunk: 'leaving',
    trigger: signedIn,
  },
  {
    name: 'admin',
    saga: lazyAdminSaga,
    args: [backend],
    load: loadAdminSaga,
    chunk: 'route-settings',
    trigger: (run, providers) => run.provide(providers).dispatch(adminUsersRequested()),
  },
  {
    name: 'mailed links',
    saga: lazyEmailLinksSaga,
    args: [backend],
    load: loadEmailLinksSaga,
    chunk: 'route-links',
    trigger: (run, providers) => run.provide(providers).dispatch(emailVerifyRequested({ token: 'tok' })),
  },
  {
    name: 'consultant tools',
    saga: lazyConsultantToolsSaga,
    args: [backend],
    load: loadConsultantToolsSaga,
    chunk: 'consultant-tools',
    trigger: (run, providers) =>
      run
        .provide(providers)
        .dispatch(channelCreateRequested({ channelId: 'a', title: 'A', description: '' })),
  },
  {
    name: 'conversation pages',
    saga: lazyConversationPagesSaga,
    args: [backend],
    load: loadConversationPagesSaga,
    chunk: 'conversation-view',
    trigger: (run, providers) => run.provide(providers).dispatch(messagesRequested({ channelId: 'A' })),
  },
  {
    name: 'members',
    saga: lazyMembersSaga,
    args: [backend],
    load: loadMembersSaga,
    chunk: 'conversation-view',
    trigger: (run, providers) => run.provide(providers).dispatch(membersRequested({ channelId: 'A' })),
  },
  {
    name: 'offers',
    saga: lazyOffersSaga,
    args: [backend],
    load: loadOffersSaga,
    chunk: 'offers',
    trigger: (run, providers) => run.provide(providers).dispatch(activeOffersRequested()),
  },
  {
    name: 'iOS debug menu',
    saga: lazyDebugMenuSaga,
    args: [],
    load: loadDebugMenu,
    chunk: 'ios-debug',
    trigger: (run, providers) =>
      run.provide(providers).withReducer(appReducer, appReducer(undefined, started(environment('ios')))),
  },
];

describe.each(LOADERS)('the $name chunk', ({ saga, args, load, chunk, trigger }) => {
  it("runs spec §4's recovery once when it cannot be loaded, and ends: its supervisor does not retry it", async () => {
    jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { allEffects } = await trigger(expectSaga(supervised, saga, ...args), [
      [matchers.call.fn(load), throwError(chunkError(chunk))],
    ])
      .put(chunkLoadFailed())
      .put({ type: 'test/ended' })
      .not.put.like({ action: { type: 'test/failed' } })
      .run();
    const reports = allEffects.filter(
      (effect) => effect.type === 'PUT' && effect.payload.action.type === chunkLoadFailed.type,
    );
    expect(reports).toHaveLength(1);
  });
});

describe('lazyConversationSaga', () => {
  it('starts the conversation’s session sagas with the backend once a session is under way', async () => {
    const started: unknown[][] = [];
    const fake = recorder(started);
    await expectSaga(lazyConversationSaga, backend)
      .provide([
        [matchers.select(selectAuthStatus), 'signedIn'],
        [
          matchers.call.fn(loadConversationSagas),
          {
            outboxSaga: fake('outbox'),
            readMarksSaga: fake('read marks'),
            messageActionsSaga: fake('message actions'),
            attachmentsSaga: fake('attachments'),
            newerPagesSaga: fake('newer pages'),
          },
        ],
      ])
      .run();
    expect(started).toEqual([
      ['outbox', backend],
      ['read marks', backend],
      ['message actions', backend],
      ['attachments', backend],
      ['newer pages', backend],
    ]);
  });
});

describe('lazyAttentionSaga', () => {
  it('loads nothing before a session starts', async () => {
    await expectSaga(lazyAttentionSaga, backend)
      .provide([[matchers.select(selectAuthStatus), 'signedOut']])
      .not.call.fn(loadAttentionSagas)
      .silentRun(20);
  });

  it('starts the mutes, title, live notices and sessions sagas', async () => {
    const started: unknown[][] = [];
    const fake = recorder(started);
    await expectSaga(lazyAttentionSaga, backend)
      .provide([
        [matchers.select(selectAuthStatus), 'signedIn'],
        [
          matchers.call.fn(loadAttentionSagas),
          {
            mutesSaga: fake('mutes'),
            titleSaga: fake('title'),
            liveNoticesSaga: fake('live notices'),
            sessionsSaga: fake('sessions'),
          },
        ],
      ])
      .run();
    expect(started).toEqual([['mutes', backend], ['title'], ['live notices'], ['sessions', backend]]);
  });
});

describe('lazyLastKnownSaga', () => {
  const userReducer = combineReducers({ user });
  const morgan = { uid: 'uidMember00000000001', email: 'member@qupm.demo', displayName: null };
  const run = (status: 'unknown' | 'signedOut') => {
    const started: unknown[][] = [];
    const saga = expectSaga(lazyLastKnownSaga)
      .withReducer(userReducer, { user: { ...userInitialState, status } })
      .provide([[matchers.call.fn(loadLastKnownSaga), { lastKnownSaga: recorder(started)('last known') }]]);
    return { started, saga };
  };

  it('loads at once on the embedded backend while the stored session is checked, so the device is read meanwhile', async () => {
    const { started, saga } = run('unknown');
    await saga.run({ timeout: 50, silenceTimeout: true });
    expect(started).toEqual([['last known']]);
  });

  it('loads nothing for a visitor until someone signs in', async () => {
    const { started, saga } = run('signedOut');
    await saga.run({ timeout: 50, silenceTimeout: true });
    expect(started).toEqual([]);
    const second = run('signedOut');
    await second.saga.dispatch(sessionBegan({ authUser: morgan })).run({ timeout: 50, silenceTimeout: true });
    expect(second.started).toEqual([['last known']]);
  });

  it('waits for a session on Firebase, whose session is not known at start', async () => {
    const globals = globalThis as unknown as { __BACKEND__: string };
    globals.__BACKEND__ = 'firebase';
    try {
      const { started, saga } = run('unknown');
      await saga.run({ timeout: 50, silenceTimeout: true });
      expect(started).toEqual([]);
    } finally {
      globals.__BACKEND__ = 'local';
    }
  });
});

describe('lazyLeavingSaga', () => {
  it('starts the leaving saga with the backend once a session is under way', async () => {
    const started: unknown[][] = [];
    await expectSaga(lazyLeavingSaga, backend)
      .provide([
        [matchers.select(selectAuthStatus), 'signedIn'],
        [matchers.call.fn(loadLeavingSaga), { leavingSaga: recorder(started)('leaving') }],
      ])
      .run();
    expect(started).toEqual([['leaving', backend]]);
  });
});

describe.each([
  {
    name: 'admin',
    saga: lazyAdminSaga,
    load: loadAdminSaga,
    key: 'adminSaga',
    first: adminUsersRequested(),
  },
  {
    name: 'mailed links',
    saga: lazyEmailLinksSaga,
    load: loadEmailLinksSaga,
    key: 'emailLinksSaga',
    first: emailVerifyRequested({ token: 'tok' }),
  },
  {
    name: 'consultant tools',
    saga: lazyConsultantToolsSaga,
    load: loadConsultantToolsSaga,
    key: 'consultantToolsSaga',
    first: channelCreateRequested({ channelId: 'strategy', title: 'Strategy', description: '' }),
  },
  {
    name: 'conversation pages',
    saga: lazyConversationPagesSaga,
    load: loadConversationPagesSaga,
    key: 'conversationSaga',
    first: messagesRequested({ channelId: 'A' }),
  },
  {
    name: 'members',
    saga: lazyMembersSaga,
    load: loadMembersSaga,
    key: 'membersSaga',
    first: membersRequested({ channelId: 'A' }),
  },
  {
    name: 'offers',
    saga: lazyOffersSaga,
    load: loadOffersSaga,
    key: 'offersSaga',
    first: activeOffersRequested(),
  },
])('the $name saga', ({ saga, load, key, first }) => {
  it("loads its chunk at its slice's first request and hands that request over", async () => {
    const started: unknown[][] = [];
    await expectSaga(saga, backend)
      .provide([[matchers.call.fn(load), { [key]: recorder(started)(key) }]])
      .dispatch(signedOut())
      .dispatch(first)
      .run();
    expect(started).toEqual([[key, backend, [first]]]);
  });

  it('loads nothing until then', async () => {
    await expectSaga(saga, backend).dispatch(signedOut()).not.call.fn(load).silentRun(20);
  });
});

// Two requests in one render (the admin section asks for its users and its channels at once; the consultant's form
// is dismissed, then a save is pressed): the second comes while the chunk loads and reaches the backend.
const fake = createFakeBackend();
const channel = { id: 'B', title: 'B' };
describe.each([
  {
    name: 'admin',
    saga: lazyAdminSaga,
    load: loadAdminSaga,
    module: adminModule,
    first: adminUsersRequested(),
    second: adminChannelsRequested(),
    asked: [fake.admin, fake.admin.listChannels],
    args: [],
  },
  {
    name: 'mailed links',
    saga: lazyEmailLinksSaga,
    load: loadEmailLinksSaga,
    module: emailLinksModule,
    first: emailVerifyRequested({ token: 'tok' }),
    second: passwordResetRequested({ email: 'dana@example.com' }),
    asked: [fake.auth, fake.auth.requestPasswordReset],
    args: ['dana@example.com'],
  },
  {
    name: 'consultant tools',
    saga: lazyConsultantToolsSaga,
    load: loadConsultantToolsSaga,
    module: consultantToolsModule,
    first: channelSaveDismissed(),
    second: channelCreateRequested({ channelId: 'b', title: 'B', description: '' }),
    asked: [fake.channels, fake.channels.createChannel],
    args: [{ channelId: 'b', title: 'B', description: '' }],
  },
  {
    name: 'conversation pages',
    saga: lazyConversationPagesSaga,
    load: loadConversationPagesSaga,
    module: conversationModule,
    first: messagesRequested({ channelId: 'A' }),
    second: messagesRequested({ channelId: 'B' }),
    asked: [fake.messages, fake.messages.listMessages],
    args: ['B', { limit: MESSAGES_PAGE }],
  },
  {
    name: 'members',
    saga: lazyMembersSaga,
    load: loadMembersSaga,
    module: membersModule,
    first: membersRequested({ channelId: 'A' }),
    second: privateChannelRequested({ withUid: 'DanaUid0000000000001', viaChannelId: 'A' }),
    asked: [fake.channels, fake.channels.openPrivateChannel],
    args: [{ withUid: 'DanaUid0000000000001', viaChannelId: 'A' }],
  },
  {
    name: 'offers',
    saga: lazyOffersSaga,
    load: loadOffersSaga,
    module: offersModule,
    first: activeOffersRequested(),
    second: issuedOffersRequested(),
    asked: [fake.offers, fake.offers.listIssuedOffers],
    args: [],
  },
])(
  'the $name chunk, with a second request while it loads',
  ({ saga, load, module, first, second, asked, args }) => {
    it('handles that request too', async () => {
      jest.spyOn(console, 'error').mockImplementation(() => undefined);
      const [context, fn] = asked as [object, jest.Mock];
      fn.mockResolvedValue(channel);
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      const run = expectSaga(saga, fake as unknown as Backend)
        // A saga that follows sessions reads who is signed in: nobody, here.
        .withState({ user: userInitialState })
        .provide([[matchers.call.fn(load), released.then(() => module)]]);
      const ran = run.call([context, fn], ...args).silentRun(50);
      run.dispatch(first);
      run.dispatch(second);
      release();
      await ran;
    });
  },
);

describe('lazyDebugMenuSaga', () => {
  it('never loads the menu off iOS', async () => {
    await expectSaga(lazyDebugMenuSaga)
      .withReducer(appReducer, appReducer(undefined, started(environment('web'))))
      .provide([[matchers.call.fn(loadDebugMenu), jest.fn()]])
      .not.call.fn(loadDebugMenu)
      .silentRun(20);
  });

  it('on iOS loads it and replays the button’s actions that came while it loaded', async () => {
    const seen: string[] = [];
    function* fakeMenu() {
      yield takeEvery(debugButtonShown.type, function* record() {
        yield call(() => seen.push('shown'));
      });
    }
    let release!: () => void;
    const loading = new Promise<{ debugMenuSaga: typeof fakeMenu }>(
      (resolve) => (release = () => resolve({ debugMenuSaga: fakeMenu })),
    );
    const saga = expectSaga(lazyDebugMenuSaga)
      .withReducer(appReducer, appReducer(undefined, started(environment('ios'))))
      .provide([[matchers.call.fn(loadDebugMenu), loading]]);
    const run = saga.silentRun(50);
    saga.dispatch(debugButtonShown());
    release();
    await run;
    expect(seen).toEqual(['shown']);
  });
});
