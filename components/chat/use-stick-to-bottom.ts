'use client';

import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';

/** Scrolling down to within this distance of the end follows the answer again. */
const NEAR_BOTTOM_PX = 80;
/** A question the user sent (components/chat/message-view.tsx). */
const USER_MESSAGE = '[data-role="user"]';

/**
 * Keeps a scroll container at the bottom while content grows (the stream), unless the user has
 * scrolled up; then `atBottom` is false and the caller offers "Jump to latest". Sending a
 * question (a new user message appears last) always scrolls down to it and follows the answer.
 *
 * Only the user unsticks it: a wheel or touch gesture upwards, or a scroll that moved up without
 * the content having shrunk (the scrollbar, the keyboard). A scroll event is not enough on its own:
 * when a large chunk lands between our scroll to the end and that scroll's event, the position is
 * far from the new end although nobody moved it (why answers used to stop being followed).
 */
export function useStickToBottom(container: RefObject<HTMLElement | null>) {
  const [atBottom, setAtBottom] = useState(true);
  const stick = useRef(true);

  const setStick = useCallback((value: boolean) => {
    stick.current = value;
    setAtBottom(value);
  }, []);

  useEffect(() => {
    const element = container.current;
    if (!element) return;
    const distance = () => element.scrollHeight - element.scrollTop - element.clientHeight;
    const toEnd = () => {
      element.scrollTop = element.scrollHeight;
    };
    let lastTop = element.scrollTop;
    let lastHeight = element.scrollHeight;
    let shrank = false;
    const seen = new WeakSet<Element>(element.querySelectorAll(USER_MESSAGE));

    // ResizeObserver callbacks run after layout, before paint: the sizes read here are fresh (no
    // forced layout), and scrolling here shows new content in the same frame it appears.
    const onResize = () => {
      const questions = element.querySelectorAll(USER_MESSAGE);
      const last = questions[questions.length - 1];
      const sent = last !== undefined && !seen.has(last);
      for (const question of questions) seen.add(question);
      if (sent && !stick.current) setStick(true);
      const height = element.scrollHeight;
      if (height < lastHeight) shrank = true;
      lastHeight = height;
      if (stick.current) toEnd();
    };
    const resizes = new ResizeObserver(onResize);
    resizes.observe(element); // the viewport: the composer grows, a banner appears, a phone keyboard opens
    const observeChildren = () => {
      for (const child of Array.from(element.children)) resizes.observe(child);
    };
    observeChildren();
    // A new child (the list replacing the empty state) is observed too; its growth is the stream.
    const children = new MutationObserver(observeChildren);
    children.observe(element, { childList: true });

    const onScroll = () => {
      const top = element.scrollTop;
      const movedUp = top < lastTop - 1;
      lastTop = top;
      if (movedUp && !shrank) {
        if (stick.current && distance() > 1) setStick(false);
      } else if (!movedUp && distance() < NEAR_BOTTOM_PX && !stick.current) {
        setStick(true);
      }
      shrank = false;
    };
    // Intent before the scroll happens: content growing in the same frame cannot undo it.
    const onWheel = (event: WheelEvent) => {
      if (event.deltaY < 0 && element.scrollTop > 0 && stick.current) setStick(false);
    };
    let touchY: number | null = null;
    const onTouchStart = (event: TouchEvent) => {
      touchY = event.touches[0]?.clientY ?? null;
    };
    const onTouchMove = (event: TouchEvent) => {
      const y = event.touches[0]?.clientY;
      if (y === undefined || touchY === null) return;
      // The finger moving down scrolls the content up.
      if (y > touchY + 2 && element.scrollTop > 0 && stick.current) setStick(false);
      touchY = y;
    };
    element.addEventListener('scroll', onScroll, { passive: true });
    element.addEventListener('wheel', onWheel, { passive: true });
    element.addEventListener('touchstart', onTouchStart, { passive: true });
    element.addEventListener('touchmove', onTouchMove, { passive: true });
    return () => {
      resizes.disconnect();
      children.disconnect();
      element.removeEventListener('scroll', onScroll);
      element.removeEventListener('wheel', onWheel);
      element.removeEventListener('touchstart', onTouchStart);
      element.removeEventListener('touchmove', onTouchMove);
    };
  }, [container, setStick]);

  const jumpToLatest = () => {
    const element = container.current;
    if (!element) return;
    setStick(true);
    element.scrollTo({ top: element.scrollHeight, behavior: 'smooth' });
  };

  return { atBottom, jumpToLatest };
}
