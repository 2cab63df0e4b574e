import { useLayoutEffect, useRef } from 'react';

/**
 * The error row under a field of the entry page. It keeps the tallest height it has had (a message
 * may wrap to two lines on a phone or in a long language), so when a fixed value clears the message
 * on blur, nothing below it moves: a click on the button right after the fix lands where it was
 * aimed (the blur runs on mousedown, the click on mouseup).
 */
export function FieldError({ id, error, testId }: { id?: string; error: string | undefined; testId?: string }) {
  const row = useRef<HTMLDivElement>(null);
  const tallest = useRef(0);
  useLayoutEffect(() => {
    const el = row.current;
    if (!el) return;
    tallest.current = Math.max(tallest.current, el.offsetHeight);
    if (tallest.current > 0) el.style.minHeight = `${tallest.current}px`;
  }, [error]);
  return (
    <div ref={row} className="sw-field-error" id={id} role={error ? 'alert' : undefined} data-testid={testId}>
      {error ?? ''}
    </div>
  );
}
