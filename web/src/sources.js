// Inputs of the demo: number grids as planar tensors {C: 1, H, W, data:
// Float32Array(H*W)}, and images as their RGBA bytes, channels last, as a
// canvas holds them: {C: 4, H, W, rgba: Uint8ClampedArray(H*W*4)} (the
// .data of an ImageData). Generated images (nothing is fetched) and a user's.

const SIZE = 32;      // side of the built-in images
const MAX_SIDE = 64;  // a user's image is scaled to fit this

export function rng(seed) {  // mulberry32: small, deterministic
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** An image's source record from its ImageData (the bytes are used as they are). */
export const imageSource = (img) => ({ kind: 'image', C: 4, H: img.height, W: img.width, rgba: img.data });

/** An opaque image whose pixel (y, x) is `fn(x, y)` -> [r, g, b] in 0..255. */
function generate(fn) {
  const img = new ImageData(SIZE, SIZE);
  for (let y = 0; y < SIZE; y++) {
    for (let x = 0; x < SIZE; x++) img.data.set([...fn(x, y), 255], (y * SIZE + x) * 4);
  }
  return imageSource(img);
}

function shapes() {
  return generate((x, y) => {
    if ((x - 10) ** 2 + (y - 10) ** 2 < 42) return [235, 70, 60];
    if (x >= 19 && x < 28 && y >= 5 && y < 14) return [60, 200, 110];
    if (y >= 18 && y < 29 && Math.abs(x - 9) <= (y - 18) / 1.6) return [70, 120, 240];
    if (Math.abs(x - y) <= 1 && x > 16) return [250, 215, 60];
    return [28, 30, 44];
  });
}

function rings() {
  return generate((x, y) => {
    const d = Math.hypot(x - 15.5, y - 15.5);
    return [0, 2.1, 4.2].map((ph) => 127.5 + 127.5 * Math.sin(d * 0.9 + ph));
  });
}

function checker() {
  return generate((x, y) => {
    const on = ((x >> 2) + (y >> 2)) % 2 === 0;
    return on ? [40 + x * 6, 80, 230 - y * 5] : [15, 15, 20];
  });
}

function stars() {
  const next = rng(7);
  const pts = Array.from({ length: 40 }, () => [
    Math.floor(next() * SIZE), Math.floor(next() * SIZE),
    [255, 160 + next() * 95, 120 + next() * 135],
  ]);
  return generate((x, y) => {
    const hit = pts.find(([px, py]) => px === x && py === y);
    return hit ? hit[2] : [8, 10, 24];
  });
}

export const IMAGES = { shapes, rings, checker, stars };

/** A number grid: 1, 2, 3, ... (the PyTorch docs example at 4x4) or random 0..99. */
export function numberGrid(H, W, fill, seed = 1) {
  const next = rng(seed);
  const data = new Float32Array(H * W);
  for (let i = 0; i < H * W; i++) {
    data[i] = fill === 'random' ? Math.floor(next() * 100) : i + 1;
  }
  return { kind: 'grid', C: 1, H, W, data };
}

/** The grid resized to H x W, keeping the values that still fit. */
export function resizeGrid(grid, H, W) {
  const out = numberGrid(H, W, 'sequence');
  for (let r = 0; r < Math.min(H, grid.H); r++) {
    for (let c = 0; c < Math.min(W, grid.W); c++) out.data[r * W + c] = grid.data[r * grid.W + c];
  }
  return out;
}

/** Decodes a picked or dropped image file and scales it to fit 64x64, on black. */
export async function imageFromFile(file) {
  const bitmap = await createImageBitmap(file);
  const scale = Math.min(1, MAX_SIDE / Math.max(bitmap.width, bitmap.height));
  const W = Math.max(1, Math.round(bitmap.width * scale));
  const H = Math.max(1, Math.round(bitmap.height * scale));
  const canvas = document.createElement('canvas');
  canvas.width = W;
  canvas.height = H;
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#000';
  ctx.fillRect(0, 0, W, H);
  ctx.drawImage(bitmap, 0, 0, W, H);
  bitmap.close();
  // Drawn on black, so the bytes are opaque; they are pooled as they are.
  return imageSource(ctx.getImageData(0, 0, W, H));
}
