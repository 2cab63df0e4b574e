import { defineAction, result, UPLOAD_RULES } from './define.js';
import { actionParams } from './common.js';
import type { AvatarDat } from './personal-params.js';

/**
 * Personal settings (issue 12, spec §2 "Personal settings"): the avatar picture. The vendor's
 * `editAccount` takes a `photo` URL; this action stores the uploaded picture and returns that
 * URL (and its server-made thumbnail), which the client then saves with `editAccount photo=`.
 */
export const uploadAvatar = defineAction({
  name: 'uploadAvatar',
  summary:
    'Sunwatch: upload an avatar picture for the caller (multipart `file`, jpg/png ≤ 8 MB, checked by its bytes); ' +
    'returns its URL and thumbnail; save it with editAccount photo=.',
  params: actionParams({}),
  access: { auth: 'signed', permission: null },
  mutates: true,
  upload: UPLOAD_RULES.image,
  result: result<AvatarDat>(),
});
