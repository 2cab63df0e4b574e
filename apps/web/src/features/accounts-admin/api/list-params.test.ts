import { describe, expect, it } from 'vitest';
import { readListState } from '../../../components/list';
import { USERS_LIST_SPEC, usersListParams } from './list-params';

describe('users list parameters', () => {
  it('sends the search box as the server search (username, nickname, phone, e-mail, PN), not the username filter', () => {
    const p = usersListParams(readListState(USERS_LIST_SPEC, new URLSearchParams('q=%2013900139077%20')));
    expect(p.search).toBe('13900139077');
    expect(p.usr).toBeUndefined();
    expect(usersListParams(readListState(USERS_LIST_SPEC, new URLSearchParams(''))).search).toBeUndefined();
  });
});
