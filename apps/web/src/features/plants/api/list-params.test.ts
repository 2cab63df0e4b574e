import { describe, expect, it } from 'vitest';
import { plantListParams, plantMapParams, projectsStateFromSearch, searchFromProjectsState, type ProjectsListState } from './list-params';

const base: ProjectsListState = { view: 'list', current: 1, pageSize: 10, search: '', statusFilter: 0 };

describe('projects list state', () => {
  it('defaults to the list view, page 1 of 10, no filter', () => {
    expect(projectsStateFromSearch(new URLSearchParams(''))).toEqual(base);
    expect(searchFromProjectsState(base).toString()).toBe('');
  });

  it('round-trips through the address bar', () => {
    const s: ProjectsListState = { view: 'map', current: 2, pageSize: 20, search: 'Anna', statusFilter: 3 };
    expect(projectsStateFromSearch(searchFromProjectsState(s))).toEqual(s);
    expect(projectsStateFromSearch(new URLSearchParams('view=bogus&status=9&size=100'))).toEqual({ ...base, statusFilter: 5 });
  });

  it('sends the list with 0-based paging and the shifted status, the map with the plain status', () => {
    expect(plantListParams(base)).toEqual({ page: 0, pagesize: 10 });
    expect(plantListParams({ ...base, current: 3, search: ' Anna ', statusFilter: 2 })).toEqual({
      page: 2,
      pagesize: 10,
      plantName: 'Anna',
      statusFilter: 2,
    });
    expect(plantMapParams({ ...base, search: 'Anna', statusFilter: 2 })).toEqual({ plantName: 'Anna', status: 1 });
    expect(plantMapParams(base)).toEqual({});
  });
});
