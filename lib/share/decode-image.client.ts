/**
 * Decodes a figure to RGBA pixels in the page (browser only), for compare-outputs.ts: bytes from
 * base64 or from the blob route, then createImageBitmap and an OffscreenCanvas. Nothing is shown
 * and nothing leaves the page.
 */
import 'client-only';
import { BLOB_REF_PATTERN } from '@/lib/runtime/protocol';
import { FigureUnavailableError, type ImageRef, type Pixels } from './compare-outputs.client';

/** Larger figures are not decoded (a canvas that big could take gigabytes of memory). */
const MAX_PIXELS = 25_000_000;

function base64Bytes(value: string): Uint8Array<ArrayBuffer> {
  const binary = atob(value);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

async function imageBlob(image: ImageRef, blobUrl: (sha256: string) => string): Promise<Blob> {
  if (!BLOB_REF_PATTERN.test(image.value)) return new Blob([base64Bytes(image.value)], { type: image.mediaType });
  // A stored figure: through the same URL the page shows it with (the share's grant).
  const response = await fetch(blobUrl(image.value.slice('blob:'.length)));
  if (!response.ok) throw new FigureUnavailableError({ kind: 'http', status: response.status });
  return response.blob();
}

/** A loader for compareOutputs: `blobUrl` says how this page reaches stored blobs. */
export function pixelLoader(blobUrl: (sha256: string) => string): (image: ImageRef) => Promise<Pixels> {
  return async (image) => {
    // Decoded as the bytes say, with no colour management or premultiplication that could make
    // the same file decode differently from one call to the next.
    const blob = await imageBlob(image, blobUrl);
    const bitmap = await createImageBitmap(blob, { colorSpaceConversion: 'none', premultiplyAlpha: 'none' }).catch((error: unknown) => {
      // createImageBitmap rejects (InvalidStateError) for bytes that are no image it can decode.
      if (error instanceof DOMException) throw new FigureUnavailableError({ kind: 'undecodable' });
      throw error;
    });
    try {
      const { width, height } = bitmap;
      if (width * height > MAX_PIXELS) throw new FigureUnavailableError({ kind: 'too-large', width, height });
      if (width === 0 || height === 0) return { width, height, data: new Uint8ClampedArray(0) };
      const context = new OffscreenCanvas(width, height).getContext('2d');
      if (!context) throw new FigureUnavailableError({ kind: 'no-canvas' });
      context.drawImage(bitmap, 0, 0);
      return { width, height, data: context.getImageData(0, 0, width, height).data };
    } finally {
      bitmap.close();
    }
  };
}
