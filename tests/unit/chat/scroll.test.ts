// @vitest-environment node
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  AUTO_SCROLL_THRESHOLD_PX,
  isNearBottom,
  SCROLL_PAUSE_MS,
  ScrollFollower,
} from '../../../src/resources/communication/chat/scroll';

// Spec section 9: the view follows new messages within 10 px of the bottom, and pauses following for 2000 ms
// after the reader scrolls.
const view = (fromBottom: number) => ({ scrollHeight: 1000, clientHeight: 400, scrollTop: 600 - fromBottom });

describe('near the bottom', () => {
  it('is within 10 px of it, inclusive', () => {
    expect(AUTO_SCROLL_THRESHOLD_PX).toBe(10);
    expect(isNearBottom(view(0))).toBe(true);
    expect(isNearBottom(view(10))).toBe(true);
    expect(isNearBottom(view(11))).toBe(false);
    expect(isNearBottom(view(300))).toBe(false);
  });
});

describe('following new messages', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('follows at first (the view opens at the bottom)', () => {
    expect(new ScrollFollower().shouldFollow()).toBe(true);
  });

  it('pauses for 2000 ms after the reader scrolls, even back to the bottom', () => {
    expect(SCROLL_PAUSE_MS).toBe(2000);
    const f = new ScrollFollower();
    f.scrolled(view(5));
    expect(f.shouldFollow()).toBe(false);
    vi.advanceTimersByTime(1999);
    expect(f.shouldFollow()).toBe(false);
    vi.advanceTimersByTime(1);
    expect(f.shouldFollow()).toBe(true);
  });

  it('does not follow a reader who scrolled up more than 10 px, however long ago', () => {
    const f = new ScrollFollower();
    f.scrolled(view(11));
    vi.advanceTimersByTime(60_000);
    expect(f.shouldFollow()).toBe(false);
  });

  it('each scroll starts the pause again', () => {
    const f = new ScrollFollower();
    f.scrolled(view(0));
    vi.advanceTimersByTime(1500);
    f.scrolled(view(0));
    vi.advanceTimersByTime(1500);
    expect(f.shouldFollow()).toBe(false);
    vi.advanceTimersByTime(500);
    expect(f.shouldFollow()).toBe(true);
  });

  it("the view's own scroll to a new message is not the reader's: it does not pause following", () => {
    const f = new ScrollFollower();
    f.followed();
    f.scrolled(view(0));
    expect(f.shouldFollow()).toBe(true);
    // The next scroll is the reader's again.
    f.scrolled(view(0));
    expect(f.shouldFollow()).toBe(false);
  });
});
