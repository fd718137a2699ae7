/**
 * The child side of bench/lib.mjs's `startChild`: answers `{ id, cmd, ...args }` messages from the
 * parent with `handlers[cmd](message)`, exits when the parent goes, then announces `ready` (with
 * `info`). No dependencies, so that it adds nothing to the memory of the process it measures.
 */
export function answerParent(handlers, info = {}) {
  process.on('message', async (message) => {
    const { id, cmd } = message;
    try {
      process.send({ id, ok: true, result: await handlers[cmd](message) });
    } catch (error) {
      process.send({ id, ok: false, error: String(error?.stack ?? error) });
    }
  });
  process.on('disconnect', () => process.exit(0));
  process.send({ ready: true, ...info });
}
