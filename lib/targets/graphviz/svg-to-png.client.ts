/**
 * Draws a (sanitized) SVG into a PNG in the page, for the model's image input: the model sees
 * what the user sees. Bounded in size; loaded as an image, so nothing in it can run or fetch.
 */
import 'client-only';
const MAX_SIDE = 1_600;

export async function svgToPngBase64(svg: string, width: number, height: number): Promise<string> {
  const scale = Math.min(1, MAX_SIDE / Math.max(width, height));
  const w = Math.max(1, Math.round(width * scale));
  const h = Math.max(1, Math.round(height * scale));
  const url = URL.createObjectURL(new Blob([svg], { type: 'image/svg+xml' }));
  try {
    const image = new Image(w, h);
    image.src = url;
    await image.decode();
    const canvas = document.createElement('canvas');
    canvas.width = w;
    canvas.height = h;
    const context = canvas.getContext('2d');
    if (!context) throw new Error('no canvas');
    context.fillStyle = '#ffffff';
    context.fillRect(0, 0, w, h);
    context.drawImage(image, 0, 0, w, h);
    return canvas.toDataURL('image/png').slice('data:image/png;base64,'.length);
  } finally {
    URL.revokeObjectURL(url);
  }
}
