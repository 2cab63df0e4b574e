/**
 * The header's user menu (spec §2: personal info, bind email, bind phone, skin, language,
 * operating manual, mall, log out): which entries an account gets in an area, as data, so the
 * desktop dropdown and the phone drawer show the same list.
 */
import type { Access } from '../../../app/access';
import type { AreaDef } from '../../../app/routes';
import { nodePath } from '../nav';

export type UserMenuEntry =
  | { key: 'personal' | 'bindEmail' | 'bindPhone' | 'customize' | 'guide'; to: string }
  | { key: 'manual' }
  | { key: 'mall'; href: string };

export function userMenuEntries(area: AreaDef, access: Access, mallUrl: string | undefined): UserMenuEntry[] {
  const out: UserMenuEntry[] = [];
  const personal = nodePath(area, 'personalBasic', access);
  if (personal) {
    out.push({ key: 'personal', to: personal });
    out.push({ key: 'bindEmail', to: `${personal}#bind-email` });
    out.push({ key: 'bindPhone', to: `${personal}#bind-phone` });
  }
  const customize = nodePath(area, 'customize', access);
  if (customize) out.push({ key: 'customize', to: customize });
  const guide = nodePath(area, 'generalintro', access);
  if (guide) out.push({ key: 'guide', to: guide });
  out.push({ key: 'manual' });
  if (mallUrl && /^https?:\/\//.test(mallUrl)) out.push({ key: 'mall', href: mallUrl });
  return out;
}
