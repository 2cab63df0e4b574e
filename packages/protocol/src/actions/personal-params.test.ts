import { describe, expect, it } from 'vitest';
import { AVATAR_URL, PROFILE_RULES, avatarThumb, profileFieldError } from './personal-params.js';

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

describe('basic info rules (spec §5)', () => {
  it('nickname 2–32 characters, no markup; empty allowed (clears)', () => {
    expect(profileFieldError('qname', 'A')).toBe('length');
    expect(profileFieldError('qname', 'Ab')).toBeUndefined();
    expect(profileFieldError('qname', '张三')).toBeUndefined();
    expect(profileFieldError('qname', 'x'.repeat(33))).toBe('length');
    expect(profileFieldError('qname', '<b>hi</b>')).toBe('format');
    expect(profileFieldError('qname', '')).toBeUndefined();
  });
  it('company name at most 64, address at most 512, phone of digits and + - ( ) space', () => {
    expect(profileFieldError('cname', 'y'.repeat(64))).toBeUndefined();
    expect(profileFieldError('cname', 'y'.repeat(65))).toBe('length');
    expect(profileFieldError('caddr', 'z'.repeat(513))).toBe('length');
    expect(profileFieldError('caddr', 'Elbchaussee 1\u0007')).toBe('format');
    expect(profileFieldError('ctel', '+49 (40) 123-456')).toBeUndefined();
    expect(profileFieldError('ctel', 'call me')).toBe('format');
    expect(profileFieldError('ctel', '12')).toBe('format');
    expect(profileFieldError('ctel', '')).toBeUndefined();
    expect(PROFILE_RULES.COMPANY_NAME_MAX).toBe(64);
  });
});
