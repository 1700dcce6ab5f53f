// The rules of a conversation's window: at most MESSAGES_WINDOW messages held; a page back past
// it lets the newest end go, a page forward the oldest; live messages newer than a window that does not reach the
// newest wait in `later`; the first message's place in the list's numbering (`firstIndex`) moves with the window's
// start. Installed into conversationSlice as this module loads, with the conversation view or the conversation
// sagas (sessionSagas.ts), whichever comes first; the shell carries none of it.
import { createAction } from '@reduxjs/toolkit';
import { compareMessages, isChanged, mergeMessages } from '@core/messages';
import type { ChatMessage } from '@core/model';
import {
  LATER_MAX,
  MESSAGES_PAGE,
  MESSAGES_WINDOW,
  installWindowRules,
  merge,
  plain,
  withoutUnheldChanges,
} from '@/store/conversationSlice';
import type { Conversation, WindowRules } from '@/store/conversationSlice';

/** A channel's newest messages as this device kept them. */
interface KeptPage {
  channelId: string;
  messages: ChatMessage[];
}

interface NewerPage {
  channelId: string;
  messages: ChatMessage[];
  after: string;
}

// The window's own actions, in the slice's domain; conversationSlice hands them to `other` below.
/** The person nears the end of a window that does not reach the newest: a page forward is asked for. */
export const newerRequested = createAction<{ channelId: string }>('conversation/newerRequested');
/** A page forward, from after `after` (the newest message when it was asked for). */
export const newerLoaded = createAction<NewerPage>('conversation/newerLoaded');
export const newerFailed = createAction<{ channelId: string; message: string }>('conversation/newerFailed');
/** The person scrolled away from the newest. */
export const scrollBackStarted = createAction<{ channelId: string }>('conversation/scrollBackStarted');
/** The person is at the newest again. */
export const latestReached = createAction<{ channelId: string }>('conversation/latestReached');
/** The conversation is to open at one of its messages (a search hit), by its cursor (core/messages.ts). */
type FocusRequest = { channelId: string; cursor: string };
export const messageFocusRequested = createAction<FocusRequest>('conversation/messageFocusRequested');
/**
 * The page around the message asked for: the messages before it, it and those after it (`hasMore`, `hasNewer`:
 * either side goes on); or `held`: the window holds it already.
 */
interface FocusPage {
  channelId: string;
  messageId: string;
  messages: ChatMessage[];
  hasMore: boolean;
  hasNewer: boolean;
}
export const focusLoaded = createAction<FocusPage>('conversation/focusLoaded');
/**
 * The newest messages this device kept of a channel, drawn while its newest page is asked for: a window that may
 * not reach the newest, so the page that answers replaces it (no gap between what was kept and what is new).
 */
export const lastKnownPageShown = createAction<KeptPage>('conversation/lastKnownPageShown');

/** Where `id` is in `messages`, looked for from the start (what this looks for is near it), or -1. */
function indexFromStart(messages: readonly ChatMessage[], id: string): number {
  for (let i = 0; i < messages.length; i += 1) if (messages[i]?.id === id) return i;
  return -1;
}

/**
 * How far the first message's place moves when the window goes from `before` to `after`: minus the messages added
 * before the old first, plus the messages let go from the start.
 */
export function firstIndexShift(before: readonly ChatMessage[], after: readonly ChatMessage[]): number {
  const oldFirst = before[0];
  const newFirst = after[0];
  if (!oldFirst || !newFirst || oldFirst.id === newFirst.id) return 0;
  const added = indexFromStart(after, oldFirst.id);
  if (added >= 0) return -added;
  const dropped = indexFromStart(before, newFirst.id);
  return dropped >= 0 ? dropped : 0;
}

/** Puts `next` as the conversation's window, moving `firstIndex` with its start. */
function setWindow(conversation: Conversation, next: ChatMessage[]) {
  const before = plain(conversation.messages);
  if (next === before) return;
  conversation.firstIndex = (conversation.firstIndex ?? 0) + firstIndexShift(before, next);
  conversation.messages = next;
}

/** The window, at most MESSAGES_WINDOW, letting the oldest end go (it can be paged back to again). */
function trimOldest(conversation: Conversation, next: ChatMessage[]): ChatMessage[] {
  if (next.length <= MESSAGES_WINDOW) return next;
  conversation.hasMore = true;
  return next.slice(next.length - MESSAGES_WINDOW);
}

/** Notes the messages by others that are new to the conversation while the person is away from the newest. */
function noteUnseen(conversation: Conversation, incoming: readonly ChatMessage[], ownUid: string | null) {
  if (!conversation.away) return;
  const held = new Set(
    [...plain(conversation.messages), ...plain(conversation.later ?? [])].map((m) => m.id),
  );
  const unseen = new Set(plain(conversation.unseen ?? []));
  let added = false;
  for (const message of incoming) {
    if (isChanged(message) || message.senderId === ownUid || held.has(message.id) || unseen.has(message.id)) {
      continue;
    }
    unseen.add(message.id);
    added = true;
  }
  if (added) conversation.unseen = [...unseen].slice(-LATER_MAX);
}

/** The window replaced by the newest page, with what waited in `later` that is not older than it. */
function replaceWithNewest(conversation: Conversation, page: readonly ChatMessage[]) {
  const fresh = mergeMessages<ChatMessage>([], page);
  const oldest = fresh[0];
  const later = plain(conversation.later ?? []).filter(
    (message) => oldest === undefined || compareMessages(message, oldest) >= 0,
  );
  conversation.messages = trimOldest(conversation, mergeMessages(fresh, later));
  conversation.hasMore = conversation.hasMore || page.length >= MESSAGES_PAGE;
  conversation.hasNewer = false;
  conversation.loadingNewer = false;
  conversation.loadingOlder = false;
  conversation.later = [];
  conversation.unseen = [];
  conversation.away = false;
  conversation.firstIndex = 0;
  conversation.generation = (conversation.generation ?? 0) + 1;
}

const pages: Omit<WindowRules, 'arrived'> = {
  /** The newest page: merged into a window that reaches the newest, else it replaces the window. */
  pageLoaded(conversation, page) {
    if (conversation.hasNewer) {
      conversation.hasMore = false;
      replaceWithNewest(conversation, page);
      return;
    }
    const merged = merge(conversation.messages, page);
    conversation.hasMore = page.length >= MESSAGES_PAGE;
    setWindow(conversation, trimOldest(conversation, merged));
  },
  /** A page back; past MESSAGES_WINDOW the newest end is let go. */
  olderLoaded(conversation, page) {
    const merged = merge(conversation.messages, page);
    conversation.hasMore = page.length >= MESSAGES_PAGE;
    let next = merged;
    if (merged.length > MESSAGES_WINDOW) {
      next = merged.slice(0, MESSAGES_WINDOW);
      conversation.hasNewer = true;
    }
    setWindow(conversation, next);
  },
  other(state, action) {
    // A channel's kept messages may come before the view has asked for anything: the conversation starts there.
    if (lastKnownPageShown.match(action)) {
      const { channelId, messages } = action.payload;
      const shown = (state.byChannel[channelId] ??= {
        status: 'loading',
        messages: [],
        hasMore: false,
        loadingOlder: false,
        error: null,
      });
      showLastKnown(shown, messages);
      return;
    }
    const conversation =
      typeof action.payload === 'object' && action.payload !== null && 'channelId' in action.payload
        ? state.byChannel[String(action.payload.channelId)]
        : undefined;
    if (!conversation) return;
    if (newerRequested.match(action)) {
      if (conversation.hasNewer) conversation.loadingNewer = true;
    } else if (newerLoaded.match(action)) {
      conversation.loadingNewer = false;
      const { after, messages } = action.payload;
      if (conversation.hasNewer && conversation.messages.at(-1)?.id === after)
        forward(conversation, messages);
    } else if (newerFailed.match(action)) {
      conversation.loadingNewer = false;
      conversation.error = action.payload.message;
    } else if (scrollBackStarted.match(action)) conversation.away = true;
    else if (focusLoaded.match(action)) openAt(conversation, action.payload);
    else if (latestReached.match(action) && !conversation.hasNewer) {
      conversation.away = false;
      if (conversation.unseen?.length) conversation.unseen = [];
    }
  },
};

/**
 * Opens the conversation at a message: a window that holds it stays as it is; otherwise the page around it
 * replaces the window, which starts again (a new generation) away from the newest, newer pages loading as the
 * person scrolls down, and what waited in `later` goes (it comes again with the newest page).
 */
function openAt(conversation: Conversation, page: ReturnType<typeof focusLoaded>['payload']) {
  const seq = (conversation.focus?.seq ?? 0) + 1;
  conversation.focus = { id: page.messageId, seq };
  if (indexFromStart(plain(conversation.messages), page.messageId) >= 0) return;
  conversation.messages = mergeMessages<ChatMessage>([], page.messages).slice(0, MESSAGES_WINDOW);
  conversation.hasMore = page.hasMore;
  conversation.hasNewer = page.hasNewer;
  conversation.loadingOlder = false;
  conversation.loadingNewer = false;
  conversation.later = [];
  conversation.unseen = [];
  conversation.away = page.hasNewer;
  conversation.firstIndex = 0;
  conversation.generation = (conversation.generation ?? 0) + 1;
}

/** Only into a conversation with nothing yet: what the backend answered is never covered by what was kept. */
function showLastKnown(conversation: Conversation, messages: ChatMessage[]) {
  if (conversation.messages.length > 0 || messages.length === 0) return;
  conversation.status = 'loaded';
  conversation.hasNewer = true;
  conversation.hasMore = messages.length >= MESSAGES_PAGE;
  setWindow(conversation, mergeMessages<ChatMessage>([], messages).slice(-MESSAGES_WINDOW));
}

/** A page forward; past MESSAGES_WINDOW the oldest end is let go; a short page reaches the newest. */
function forward(conversation: Conversation, page: ChatMessage[]) {
  {
    let merged = merge(conversation.messages, page);
    if (page.length < MESSAGES_PAGE) {
      merged = mergeMessages(merged, plain(conversation.later ?? []));
      conversation.later = [];
      conversation.hasNewer = false;
    }
    setWindow(conversation, trimOldest(conversation, merged));
  }
}

const live: Pick<WindowRules, 'arrived'> = {
  /** Live messages (and changes) of this conversation. */
  arrived(conversation, messages, ownUid) {
    noteUnseen(conversation, messages, ownUid);
    const held = plain(conversation.messages);
    const newest = held.at(-1);
    // A window that does not reach the newest (or, while the person reads further up, is full) keeps what comes
    // after it in `later`: taking it would leave a gap, or let go of what they read.
    const detach =
      newest !== undefined &&
      (conversation.hasNewer || (conversation.away && held.length >= MESSAGES_WINDOW));
    const after = detach ? messages.filter((message) => compareMessages(message, newest) > 0) : [];
    if (after.length > 0) {
      conversation.hasNewer = true;
      conversation.later = mergeMessages(plain(conversation.later ?? []), after).slice(-LATER_MAX);
    }
    const within = after.length > 0 ? messages.filter((message) => !after.includes(message)) : messages;
    const kept = withoutUnheldChanges(conversation, within);
    if (kept.length > 0)
      setWindow(conversation, trimOldest(conversation, merge(conversation.messages, kept)));
  },
};

installWindowRules({ ...pages, ...live });
