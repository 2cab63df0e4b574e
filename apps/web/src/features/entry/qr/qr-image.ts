/**
 * The one QR drawing helper of the web app (issue 12): the QR sign-in face and the app-download
 * prompt draw their codes through it. `qrcode` (npm, offline) is imported lazily so that the entry
 * page's first load does not carry it.
 */
export const QR_OPTIONS = { margin: 2, errorCorrectionLevel: 'M' } as const;

function checkText(text: string): void {
  if (!text) throw new Error('qr: nothing to encode');
}

/** Draws `text` as a size × size QR code on a canvas. */
export async function drawQr(canvas: HTMLCanvasElement, text: string, size: number): Promise<void> {
  checkText(text);
  const QRCode = await import('qrcode');
  await QRCode.toCanvas(canvas, text, { ...QR_OPTIONS, width: size });
}

/** `text` as a size × size QR code, a PNG data URL (for an <img>). */
export async function qrDataUrl(text: string, size: number): Promise<string> {
  checkText(text);
  const QRCode = await import('qrcode');
  return QRCode.toDataURL(text, { ...QR_OPTIONS, width: size, type: 'image/png' });
}
