/**
 * Reads a Server-Sent Events body, handing each event's data (parsed JSON) to `onEvent`, until the stream ends.
 * The chat's screens, its API tests and its benchmark all read the live stream this way (through fetch: an
 * EventSource cannot send the bearer token).
 */
export async function readEvents<T>(body: ReadableStream<Uint8Array>, onEvent: (event: T) => void): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true });
    let cut: number;
    while ((cut = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      // Comment lines (': still here') keep the connection alive and carry no event.
      const data = block.split('\n').find((l) => l.startsWith('data: '));
      if (data) onEvent(JSON.parse(data.slice(6)) as T);
    }
  }
}
