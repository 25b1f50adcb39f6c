/** Spec section 9: the view follows new messages within this distance of the bottom… */
export const AUTO_SCROLL_THRESHOLD_PX = 10;
/** …and stops following for this long after the reader scrolls. */
export const SCROLL_PAUSE_MS = 2000;

export interface ScrollMetrics {
  scrollTop: number;
  scrollHeight: number;
  clientHeight: number;
}

export const isNearBottom = (m: ScrollMetrics, threshold = AUTO_SCROLL_THRESHOLD_PX) =>
  m.scrollHeight - m.scrollTop - m.clientHeight <= threshold;

/**
 * The chat's scroll rule: a new message scrolls the view to the bottom only while the reader was within 10 px
 * of it, and not within 2000 ms of the reader's own scrolling. Scrolls the view makes itself are not the
 * reader's (`followed`), so following never pauses itself.
 */
export class ScrollFollower {
  private nearBottom = true;
  private pausedUntil = 0;
  private ownScrolls = 0;

  constructor(private now: () => number = () => Date.now()) {}

  /** A scroll event of the view. */
  scrolled(m: ScrollMetrics): void {
    this.nearBottom = isNearBottom(m);
    if (this.ownScrolls > 0) {
      this.ownScrolls--;
      return;
    }
    this.pausedUntil = this.now() + SCROLL_PAUSE_MS;
  }

  /** Whether the view should scroll to a message that has just arrived. */
  shouldFollow(): boolean {
    return this.nearBottom && this.now() >= this.pausedUntil;
  }

  /** The view is about to scroll itself to the bottom: the scroll event that follows is not the reader's. */
  followed(): void {
    this.ownScrolls++;
    this.nearBottom = true;
  }
}
