// A visitor's image file, treated as hostile: it may not be an image, may
// be corrupt, or may be huge. Its size is read from the file's header
// (PNG, GIF, JPEG, WebP, BMP) before anything is decoded, so a small file
// that claims 30000 x 30000 pixels is refused without allocating them; a
// decoded image is checked again. Accepted images are centre-cropped to a
// square and scaled to the model's 48 x 48.
import { SIZE } from './scenes.js';

export const MAX_BYTES = 25 * 1024 * 1024;
export const MAX_SIDE = 12000;
export const MAX_PIXELS = 40e6;

const u16 = (b, i, little) => (little ? b[i] | (b[i + 1] << 8) : (b[i] << 8) | b[i + 1]);
const u32 = (b, i, little) => (little ? u16(b, i, true) + u16(b, i + 2, true) * 65536 : u16(b, i) * 65536 + u16(b, i + 2));

/** [width, height] from a JPEG's first start-of-frame segment, or null. */
function jpegSize(b) {
  let i = 2;
  while (i + 9 < b.length) {
    if (b[i] !== 0xff) return null;
    const marker = b[i + 1];
    if (marker === 0xff) { i++; continue; }
    const len = u16(b, i + 2);
    const sof = marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker);
    if (sof) return [u16(b, i + 7), u16(b, i + 5)];
    i += 2 + len;
  }
  return null;
}

/** The format and [width, height] a file's first bytes declare, or null when they are not a known image header. */
export function headerSize(b) {
  const ascii = (i, n) => String.fromCharCode(...b.subarray(i, i + n));
  if (b.length >= 24 && b[0] === 0x89 && ascii(1, 3) === 'PNG' && ascii(12, 4) === 'IHDR') {
    return { format: 'PNG', size: [u32(b, 16), u32(b, 20)] };
  }
  if (b.length >= 10 && ascii(0, 3) === 'GIF') return { format: 'GIF', size: [u16(b, 6, true), u16(b, 8, true)] };
  if (b.length >= 4 && b[0] === 0xff && b[1] === 0xd8) {
    const size = jpegSize(b);
    return size ? { format: 'JPEG', size } : null;
  }
  if (b.length >= 30 && ascii(0, 4) === 'RIFF' && ascii(8, 4) === 'WEBP') {
    const kind = ascii(12, 4);
    if (kind === 'VP8X') return { format: 'WebP', size: [1 + (b[24] | (b[25] << 8) | (b[26] << 16)), 1 + (b[27] | (b[28] << 8) | (b[29] << 16))] };
    if (kind === 'VP8L') {
      const bits = u32(b, 21, true);
      return { format: 'WebP', size: [1 + (bits & 0x3fff), 1 + ((bits >>> 14) & 0x3fff)] };
    }
    if (kind === 'VP8 ') return { format: 'WebP', size: [u16(b, 26, true) & 0x3fff, u16(b, 28, true) & 0x3fff] };
  }
  if (b.length >= 26 && ascii(0, 2) === 'BM') return { format: 'BMP', size: [u32(b, 18, true) | 0, Math.abs(u32(b, 22, true) | 0)] };
  return null;
}

const tooBig = ([w, h]) => w > MAX_SIDE || h > MAX_SIDE || w * h > MAX_PIXELS;
const mb = (n) => `${(n / 1024 / 1024).toFixed(1)} MB`;

/** Why `file` is refused before decoding, or null. */
export async function refusal(file) {
  const what = `"${file.name}"`;
  if (file.size === 0) return `${what} is empty`;
  if (file.size > MAX_BYTES) return `${what} is ${mb(file.size)}; the page takes image files up to ${mb(MAX_BYTES)}`;
  const head = headerSize(new Uint8Array(await file.slice(0, 64 * 1024).arrayBuffer()));
  if (!head && !/^image\//.test(file.type)) {
    return `${what} is not an image (${file.type ? `type ${file.type}` : 'no image header'}); pick a PNG, JPEG, GIF, WebP or BMP file`;
  }
  if (head && tooBig(head.size)) {
    return `${what} is a ${head.format} of ${head.size[0]} × ${head.size[1]} pixels; the page takes images up to ` +
      `${MAX_SIDE} pixels a side and ${MAX_PIXELS / 1e6} megapixels`;
  }
  return null;
}

/**
 * The file as a 48 x 48 RGB scene (no labels: the page does not know its
 * classes); throws an Error with a message for the page when refused.
 */
export async function sceneFromFile(file) {
  const why = await refusal(file);
  if (why) throw new Error(why);
  let bitmap;
  try {
    bitmap = await createImageBitmap(file);
  } catch (e) {
    throw new Error(`"${file.name}" could not be decoded as an image (${e.message || e.name})`);
  }
  try {
    const { width: w, height: h } = bitmap;
    if (!w || !h || tooBig([w, h])) throw new Error(`"${file.name}" decodes to ${w} × ${h} pixels, which the page does not take`);
    const side = Math.min(w, h);
    const canvas = document.createElement('canvas');
    canvas.width = canvas.height = SIZE;
    const ctx = canvas.getContext('2d');
    ctx.imageSmoothingQuality = 'high';
    ctx.fillStyle = '#000';
    ctx.fillRect(0, 0, SIZE, SIZE);
    ctx.drawImage(bitmap, (w - side) / 2, (h - side) / 2, side, side, 0, 0, SIZE, SIZE);
    const rgba = ctx.getImageData(0, 0, SIZE, SIZE).data;
    const rgb = new Uint8ClampedArray(SIZE * SIZE * 3);
    for (let i = 0; i < SIZE * SIZE; i++) rgb.set(rgba.subarray(i * 4, i * 4 + 3), i * 3);
    return { rgb, truth: null, name: file.name, from: [w, h] };
  } finally {
    bitmap.close();
  }
}
