// A drawn-looking signature for the demo's signed timesheets: a PNG data URL, as the signature pad gives one.
import { crc32, deflateSync } from 'node:zlib';

const WIDTH = 300;
const HEIGHT = 90;
/** Ink: the dark blue of a ballpoint pen. */
const INK = [24, 44, 110];

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body) >>> 0);
  return Buffer.concat([length, body, crc]);
}

/** An RGBA image (rows of WIDTH × 4 bytes) as PNG. */
function png(rgba: Buffer): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(WIDTH, 0);
  header.writeUInt32BE(HEIGHT, 4);
  header.set([8, 6, 0, 0, 0], 8); // 8 bits a sample, RGBA, deflate, no filter method, not interlaced
  const rows = Buffer.alloc((WIDTH * 4 + 1) * HEIGHT);
  for (let y = 0; y < HEIGHT; y++) rgba.copy(rows, y * (WIDTH * 4 + 1) + 1, y * WIDTH * 4, (y + 1) * WIDTH * 4);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * A signature for `name`: a pen stroke of loops along the line, shaped by the name (the same name signs alike), on
 * a transparent ground.
 */
export function demoSignature(name: string): string {
  let seed = 0;
  for (const ch of name) seed = (seed * 31 + ch.charCodeAt(0)) >>> 0;
  const rand = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32) as number;
  const loops = 4 + Math.floor(rand() * 4);
  const slant = 0.3 + rand() * 0.4;
  const rgba = Buffer.alloc(WIDTH * HEIGHT * 4);
  const dab = (cx: number, cy: number) => {
    for (let y = Math.floor(cy - 2); y <= cy + 2; y++)
      for (let x = Math.floor(cx - 2); x <= cx + 2; x++) {
        if (x < 0 || y < 0 || x >= WIDTH || y >= HEIGHT) continue;
        const alpha = Math.max(0, 1 - Math.hypot(x - cx, y - cy) / 1.8);
        const i = (y * WIDTH + x) * 4;
        rgba.set(INK, i);
        rgba[i + 3] = Math.max(rgba[i + 3], Math.round(alpha * 255));
      }
  };
  // Each loop a letter: some tall, some short, leaning forward over a baseline drifting up a little.
  const heights = Array.from({ length: loops }, (_, i) => (i === 0 ? 32 : 10 + rand() * 22));
  const steps = 2000;
  for (let k = 0; k <= steps; k++) {
    const t = k / steps;
    const phase = t * loops * 2 * Math.PI;
    const height = heights[Math.min(loops - 1, Math.floor(t * loops))];
    const up = (1 - Math.cos(phase)) / 2;
    const y = HEIGHT * 0.62 - 6 * t - height * up;
    const x = 16 + t * (WIDTH - 70) - 14 * Math.sin(phase) + slant * (HEIGHT * 0.62 - y);
    dab(x, y);
  }
  // The underline flourish.
  for (let k = 0; k <= 300; k++) {
    const t = k / 300;
    dab(30 + t * (WIDTH - 70), HEIGHT * 0.82 - 8 * Math.sin(t * Math.PI));
  }
  return `data:image/png;base64,${png(rgba).toString('base64')}`;
}
