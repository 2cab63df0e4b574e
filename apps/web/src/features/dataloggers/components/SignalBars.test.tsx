import { describe, expect, it } from 'vitest';
import { render } from '@testing-library/react';
import { SignalBars } from './SignalBars';

const lit = (percent: number) => {
  const { container } = render(<SignalBars percent={percent} label="Signal" />);
  const bars = Array.from(container.querySelectorAll('span > span')) as HTMLElement[];
  return bars.filter((b) => b.style.background !== 'rgb(217, 217, 217)').map((b) => b.style.background);
};

describe('SignalBars', () => {
  it('lights one bar per 20 % in the colour of the strength', () => {
    expect(lit(0)).toEqual([]);
    expect(lit(15)).toEqual(['rgb(245, 34, 45)']);
    expect(lit(50)).toHaveLength(3);
    expect(new Set(lit(50))).toEqual(new Set(['rgb(250, 140, 22)']));
    expect(lit(100)).toHaveLength(5);
    expect(new Set(lit(100))).toEqual(new Set(['rgb(82, 196, 26)']));
  });
});
