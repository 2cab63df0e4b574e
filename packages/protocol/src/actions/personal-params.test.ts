import { describe, expect, it } from 'vitest';
import { AVATAR_URL, avatarThumb } from './personal-params.js';

describe('avatar URLs', () => {
  it('derives the thumbnail of a stored avatar and leaves other URLs as they are', () => {
    const id = '0123456789abcdef0123456789abcdef';
    expect(avatarThumb(`/files/avatar/${id}.png`)).toBe(`/files/avatar/${id}-s.png`);
    expect(avatarThumb(`/files/avatar/${id}.jpg`)).toBe(`/files/avatar/${id}-s.jpg`);
    expect(avatarThumb(`/files/avatar/${id}-s.jpg`)).toBe(`/files/avatar/${id}-s.jpg`);
    expect(avatarThumb('https://example.com/me.png')).toBe('https://example.com/me.png');
    expect(avatarThumb('')).toBeUndefined();
    expect(AVATAR_URL.test(`/files/avatar/../${id}.png`)).toBe(false);
  });
});
