import {
  ApiCallError,
  envelopeData,
  errorDesc,
  type ActionName,
  type Catalogue,
  type ParamsOf,
  type ResultOf,
} from '@sunwatch/protocol';
import { api, endSessionOn } from './api';
import { nodeUrl } from './node-url';

export interface UploadOptions {
  /** 0…100 while the file goes up. */
  onProgress?: (percent: number) => void;
}

/**
 * A multipart upload of one file (field `file`) to an action that declares an upload rule, signed
 * like every call (the client's `urlOf`: the parameters in the signed query, only the file in the
 * body) on the chosen server node (`nodeUrl`), with upload progress (XMLHttpRequest: fetch reports none). Session ends sign out as `api.call`.
 */
export function uploadAction<N extends ActionName>(
  name: N,
  params: ParamsOf<Catalogue[N]>,
  file: Blob,
  fileName: string,
  options: UploadOptions = {},
): Promise<ResultOf<Catalogue[N]>> {
  let url: string;
  try {
    // to the chosen server node, like every call (issue 12)
    url = nodeUrl(api.urlOf(name, params));
  } catch (e) {
    endSessionOn(e);
    return Promise.reject(e instanceof Error ? e : new ApiCallError(3, errorDesc(3)));
  }
  const body = new FormData();
  body.append('file', file, fileName);
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) options.onProgress?.(Math.round((e.loaded / e.total) * 100));
    };
    xhr.onerror = () => reject(new ApiCallError(3, errorDesc(3)));
    xhr.onload = () => {
      options.onProgress?.(100);
      try {
        resolve(envelopeData<ResultOf<Catalogue[N]>>(xhr.responseText));
      } catch (e) {
        endSessionOn(e);
        reject(e instanceof Error ? e : new ApiCallError(3, errorDesc(3)));
      }
    };
    xhr.send(body);
  });
}
