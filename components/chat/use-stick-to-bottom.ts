'use client';

import { useEffect, useRef, useState, type RefObject } from 'react';

const NEAR_BOTTOM_PX = 80;

/**
 * Keeps a scroll container at the bottom while content grows (the stream), unless the user has
 * scrolled up; then `atBottom` is false and the caller offers "Jump to latest".
 */
export function useStickToBottom(container: RefObject<HTMLElement | null>) {
  const [atBottom, setAtBottom] = useState(true);
  const stick = useRef(true);

  useEffect(() => {
    const element = container.current;
    if (!element) return;
    const onScroll = () => {
      const near = element.scrollHeight - element.scrollTop - element.clientHeight < NEAR_BOTTOM_PX;
      stick.current = near;
      setAtBottom(near);
    };
    // Reading scrollHeight forces a layout: at most once per frame, however many mutations arrive.
    let frame = 0;
    const follow = () => {
      if (frame) return;
      frame = requestAnimationFrame(() => {
        frame = 0;
        if (stick.current) element.scrollTop = element.scrollHeight;
      });
    };
    const observer = new ResizeObserver(follow);
    for (const child of Array.from(element.children)) observer.observe(child);
    const mutations = new MutationObserver(() => {
      for (const child of Array.from(element.children)) observer.observe(child);
      follow();
    });
    mutations.observe(element, { childList: true, subtree: true, characterData: true });
    element.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      cancelAnimationFrame(frame);
      observer.disconnect();
      mutations.disconnect();
      element.removeEventListener('scroll', onScroll);
    };
  }, [container]);

  const jumpToLatest = () => {
    const element = container.current;
    if (!element) return;
    stick.current = true;
    setAtBottom(true);
    element.scrollTo({ top: element.scrollHeight, behavior: 'smooth' });
  };

  return { atBottom, jumpToLatest };
}
