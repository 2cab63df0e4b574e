/**
 * The server-node picker (spec §2, §4 "Node change", §8 "a default node plus those returned by the
 * server (default only outside production)"): the choice is stored in the cookie and the page reloads.
 */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ServerNode } from '@sunwatch/protocol';
import { CheckIcon, CloudServerIcon } from '../icons';
import { EntryDialog, ExtraButton } from '../branding/EntryBranding';
import { getNode, setNode } from '../../../app/node-url';
import { loadNodes } from './node-deps';

export function NodePicker({ reload = () => window.location.reload() }: { reload?: () => void }) {
  const { t } = useTranslation('branding');
  const [open, setOpen] = useState(false);
  const [nodes, setNodes] = useState<readonly ServerNode[] | 'failed' | undefined>();
  useEffect(() => {
    if (!open) return;
    let live = true;
    loadNodes().then(
      (list) => live && setNodes(list),
      () => live && setNodes('failed'),
    );
    return () => {
      live = false;
    };
  }, [open]);
  const current = getNode();
  // the default node (the server of this page) first, then the server's other nodes
  const options: ServerNode[] = [{ name: t('nodes.default'), url: '' }];
  if (Array.isArray(nodes)) for (const n of nodes) if (n.url !== '') options.push(n);
  return (
    <>
      <ExtraButton icon={<CloudServerIcon />} label={t('nodes.button')} onClick={() => setOpen(true)} testId="node-picker" />
      {open ? (
        <EntryDialog title={t('nodes.title')} onClose={() => setOpen(false)} testId="node-dialog">
          {nodes === 'failed' ? <p role="alert">{t('nodes.failed')}</p> : null}
          <ul className="sw-brand-nodes">
            {options.map((n) => (
              <li key={n.url || 'default'}>
                <button
                  type="button"
                  className="sw-btn"
                  aria-pressed={n.url === current}
                  data-testid={`node-${n.url ? n.name : 'default'}`}
                  onClick={() => {
                    setNode(n.url);
                    reload();
                  }}
                >
                  <span>{n.name}</span>
                  {n.url === current ? (
                    <span>
                      <CheckIcon /> {t('nodes.current')}
                    </span>
                  ) : null}
                </button>
              </li>
            ))}
          </ul>
          <p className="sw-entry-subtitle">{t('nodes.hint')}</p>
        </EntryDialog>
      ) : null}
    </>
  );
}

export default NodePicker;
