import { useLayoutEffect, useRef, useState, type RefObject } from 'react';

/**
 * The rendered width of an element, kept current with a ResizeObserver (layouts that switch
 * by the space they really get, not by the viewport). 0 until measured. `of: 'parent'`
 * measures the element's parent: the space offered, for an element whose own width depends
 * on the layout chosen from it.
 */
export function useElementWidth<T extends Element>(
  options: { of?: 'self' | 'parent' } = {},
): [RefObject<T | null>, number] {
  const ref = useRef<T>(null);
  const [width, setWidth] = useState(0);
  const of = options.of ?? 'self';
  useLayoutEffect(() => {
    const el = of === 'parent' ? ref.current?.parentElement : ref.current;
    if (!el) return;
    setWidth(el.getBoundingClientRect().width);
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver((entries) => {
      const w = entries[0]?.contentRect.width;
      if (w !== undefined) setWidth(w);
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [of]);
  return [ref, width];
}
