import { useEffect, useRef } from 'react';

export interface KeyActions {
  togglePlay: () => void;
  skip: (seconds: number) => void;
  toggleFullscreen: () => void;
  toggleMute: () => void;
}

/** Where typing happens: a shortcut never takes a key from a form field. */
function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  return ['INPUT', 'SELECT', 'TEXTAREA'].includes(target.tagName);
}

/**
 * Desktop shortcuts while the player is open: space or k plays/pauses, j/l or ←/→ go 10 s back/forward, f full
 * screen, m mute. Space on a focused button presses that button instead, as it always does.
 */
export function usePlayerKeys(actions: KeyActions): void {
  const latest = useRef(actions);
  useEffect(() => {
    latest.current = actions;
  });
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
      if (isTypingTarget(event.target)) return;
      const a = latest.current;
      const onButton = event.target instanceof HTMLElement && event.target.closest('button, a, summary');
      switch (event.key) {
        case ' ':
          if (onButton) return;
          a.togglePlay();
          break;
        case 'k':
        case 'K':
          a.togglePlay();
          break;
        case 'j':
        case 'J':
        case 'ArrowLeft':
          a.skip(-10);
          break;
        case 'l':
        case 'L':
        case 'ArrowRight':
          a.skip(10);
          break;
        case 'f':
        case 'F':
          a.toggleFullscreen();
          break;
        case 'm':
        case 'M':
          a.toggleMute();
          break;
        default:
          return;
      }
      event.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
