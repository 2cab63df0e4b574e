import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { Bars } from './Bars';
import { Donut } from './Donut';

describe('SVG charts', () => {
  afterEach(cleanup);
  it('draws a donut: total in the centre, a segment per non-zero slice, every value and share in the legend', () => {
    render(
      <Donut
        testId="d"
        ariaLabel="Devices by status"
        locale="de_DE"
        total={1234}
        slices={[
          { name: 'Online', value: 1000, color: '#52c41a' },
          { name: 'Offline', value: 0, color: '#999' },
          { name: 'Fault', value: 234, color: '#f5222d' },
        ]}
      />,
    );
    expect(screen.getByRole('img', { name: 'Devices by status: 1.234' })).toBeTruthy();
    expect(screen.getByTestId('d-centre').textContent).toBe('1.234');
    const paths = screen.getByTestId('d').querySelectorAll('path');
    expect([...paths].map((p) => p.getAttribute('data-value'))).toEqual(['1000', '234']);
    // German grouping and percent format (a no-break space before %)
    const legend = screen.getAllByTestId('d-legend').map((li) => li.textContent?.replace(/\s/g, ' '));
    expect(legend).toEqual(['Online1.00081 %', 'Offline00 %', 'Fault23419 %']);
    // hovering a segment puts its own value in the centre
    fireEvent.mouseEnter(paths[1]!);
    expect(screen.getByTestId('d-centre').textContent).toBe('234');
    fireEvent.mouseLeave(paths[1]!);
    expect(screen.getByTestId('d-centre').textContent).toBe('1.234');
  });

  it('draws an empty ring for a zero total', () => {
    render(<Donut testId="e" ariaLabel="x" locale="en_US" total={0} slices={[]} />);
    expect(screen.getByTestId('e').querySelectorAll('path')).toHaveLength(0);
    expect(screen.getByTestId('e').querySelectorAll('circle')).toHaveLength(1);
    expect(screen.getByTestId('e-centre').textContent).toBe('0');
  });

  it('draws bars with values, labels and a tooltip on focus', () => {
    render(<Bars testId="b" labels={['11/17', '11/18', '11/19']} values={[0, 3, 1]} seriesName="Alarms" locale="en_US" integer />);
    const bars = screen.getAllByTestId('b-bar');
    expect(bars.map((b) => b.getAttribute('data-value'))).toEqual(['0', '3', '1']);
    const h = bars.map((b) => Number(b.getAttribute('height')));
    expect(h[0]).toBe(0);
    expect(h[1]).toBeGreaterThan(h[2]!);
    expect(screen.getByRole('img').getAttribute('aria-label')).toBe('Alarms: 11/17 0, 11/18 3, 11/19 1');
    fireEvent.focus(screen.getByLabelText('11/18: 3'));
    expect(screen.getByRole('tooltip').textContent).toBe('11/18Alarms: 3');
  });
});
