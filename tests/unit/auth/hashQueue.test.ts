// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { HashQueue } from '../../../server/auth/hashQueue';
import { HttpError } from '../../../server/http';

/** A hash that ends when the test says so. */
function latch() {
  let release!: () => void;
  const done = new Promise<void>((r) => (release = r));
  return { done, release };
}

describe('HashQueue (bounded password hashing)', () => {
  it('runs at most `concurrency` hashes at once; the rest wait their turn', async () => {
    const q = new HashQueue({ concurrency: 2, perKey: 10, maxWaiting: 10 });
    const started: string[] = [];
    const latches = new Map<string, ReturnType<typeof latch>>();
    const hash = (name: string) => async () => {
      started.push(name);
      const l = latch();
      latches.set(name, l);
      await l.done;
      return name;
    };
    const a = q.run('x', hash('a'));
    const b = q.run('y', hash('b'));
    const c = q.run('z', hash('c'));
    await q.whenWaiting(1);
    expect(started).toEqual(['a', 'b']);
    latches.get('a')!.release();
    expect(await a).toBe('a');
    await Promise.resolve();
    expect(started).toEqual(['a', 'b', 'c']);
    latches.get('b')!.release();
    latches.get('c')!.release();
    expect(await Promise.all([b, c])).toEqual(['b', 'c']);
    expect(q.waitingCount).toBe(0);
  });

  it('refuses in words past the per-address bound (429) and past the waiting bound (503), before hashing', async () => {
    const q = new HashQueue({ concurrency: 1, perKey: 2, maxWaiting: 2 });
    const l = latch();
    let hashed = 0;
    const hash = async () => {
      hashed++;
      await l.done;
    };
    const running = [q.run('10.0.0.1', hash)];
    const second = q.run('10.0.0.1', hash).catch((e) => e);
    const third = await q.run('10.0.0.1', hash).catch((e) => e);
    expect(third).toBeInstanceOf(HttpError);
    expect(third).toMatchObject({
      status: 429,
      message: 'Too many sign-ins are being checked from your address at once. Try again in a few seconds.',
    });
    running.push(q.run('10.0.0.2', hash));
    await q.whenWaiting(2);
    // Full: a newcomer takes the place of 10.0.0.1's second (that address is being served already).
    running.push(q.run('10.0.0.3', hash));
    expect(await second).toMatchObject({ status: 503 });
    // Now every waiting sign-in is the only one of its address: a newcomer is refused.
    const full = await q.run('10.0.0.4', hash).catch((e) => e);
    expect(full).toMatchObject({
      status: 503,
      message: 'The server is busy checking other sign-ins. Try again in a few seconds.',
    });
    expect(q.refusal('10.0.0.4')).toMatchObject({ status: 503 });
    // Hashing without a key (setting a password) is never refused: it waits.
    running.push(q.run(null, hash));
    l.release();
    await Promise.all(running);
    expect(hashed).toBe(4);
    expect(q.refusal('10.0.0.1')).toBeNull();
  });

  it('gives the next turn to the address that failed least lately, not to the one flooding', async () => {
    const q = new HashQueue({ concurrency: 1, perKey: 10, maxWaiting: 10 });
    const order: string[] = [];
    // The user signed in a moment ago (no failure); the flooding address has failed.
    await q.run('user', async () => void order.push('user'));
    q.failed('flood');
    const gate = latch();
    const first = q.run('flood', async () => {
      order.push('flood');
      await gate.done;
    });
    const rest = [
      ...Array.from({ length: 4 }, () => q.run('flood', async () => void order.push('flood'))),
      q.run('user', async () => void order.push('user')),
    ];
    await q.whenWaiting(5);
    gate.release();
    await Promise.all([first, ...rest]);
    expect(order).toEqual(['user', 'flood', 'user', 'flood', 'flood', 'flood', 'flood']);
  });

  it('when full, a newcomer that failed less takes the place of the latest waiting sign-in of an address that failed most', async () => {
    const q = new HashQueue({ concurrency: 1, perKey: 5, maxWaiting: 2 });
    const gate = latch();
    const order: string[] = [];
    q.failed('flood');
    const holder = q.run(null, () => gate.done);
    const first = q.run('flood', async () => void order.push('flood-1'));
    const second = q.run('flood', async () => void order.push('flood-2')).catch((e) => e);
    await q.whenWaiting(2);
    // Another flooding address (worse) finds it full; the user (no failure) displaces the latest flood entry.
    q.failed('flood-b');
    q.failed('flood-b');
    expect(q.refusal('flood-b')).toMatchObject({ status: 503 });
    expect(q.refusal('user')).toBeNull();
    const user = q.run('user', async () => void order.push('user'));
    expect(await second).toMatchObject({
      status: 503,
      message: 'The server is busy checking other sign-ins. Try again in a few seconds.',
    });
    gate.release();
    await Promise.all([holder, first, user]);
    expect(order).toEqual(['user', 'flood-1']);
  });

  it('a burst from fresh addresses (none has failed yet) never refuses a sign-in from an address with nothing waiting (issue 30.4)', async () => {
    const q = new HashQueue({ concurrency: 1, perKey: 20, maxWaiting: 10 });
    const gate = latch();
    const order: string[] = [];
    const holder = q.run(null, () => gate.done);
    // Four addresses fill the queue (4, 2, 2 and 2 waiting); none has a failure on record yet.
    const burst = ['a', 'a', 'a', 'a', 'b', 'b', 'c', 'c', 'd', 'd'].map((k) =>
      q
        .run(k, async () => void order.push(k))
        .then(
          () => 'ran',
          (e) => e.status,
        ),
    );
    await q.whenWaiting(10);
    expect(q.refusal('user')).toBeNull();
    const user = q.run('user', async () => void order.push('user'));
    // The latest sign-in of the heaviest address gave up its place; the user goes first.
    expect(await burst[3]).toBe(503);
    gate.release();
    await Promise.all([holder, user, ...burst]);
    expect(order[0]).toBe('user');
    expect(order.filter((k) => k === 'a')).toHaveLength(3);
  });

  it('an address never displaces its own sign-ins, nor one as light as itself', async () => {
    const q = new HashQueue({ concurrency: 1, perKey: 5, maxWaiting: 2 });
    const gate = latch();
    const holder = q.run(null, () => gate.done);
    const waiting = [q.run('x', async () => undefined), q.run('y', async () => undefined)];
    await q.whenWaiting(2);
    expect(q.refusal('x')).toMatchObject({ status: 503 });
    expect(q.refusal('z')).toMatchObject({ status: 503 });
    gate.release();
    await Promise.all([holder, ...waiting]);
  });
});
