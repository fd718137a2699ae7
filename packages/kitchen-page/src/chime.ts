/**
 * The sound of a new order: two short tones made with WebAudio (no file to load). Browsers let a
 * page play sound only after a gesture, so the context is made on the sign-in click (`unlock`).
 */
export class Chime {
  private context: AudioContext | undefined;
  muted = false;

  unlock(): void {
    if (typeof AudioContext === 'undefined') return;
    this.context ??= new AudioContext();
    void this.context.resume().catch(() => undefined);
  }

  ring(): void {
    const context = this.context;
    if (this.muted || context === undefined) return;
    const start = context.currentTime;
    for (const [offset, frequency] of [
      [0, 880],
      [0.18, 1320],
    ] as const) {
      const tone = context.createOscillator();
      const gain = context.createGain();
      tone.frequency.value = frequency;
      gain.gain.setValueAtTime(0.0001, start + offset);
      gain.gain.exponentialRampToValueAtTime(0.3, start + offset + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + offset + 0.16);
      tone.connect(gain).connect(context.destination);
      tone.start(start + offset);
      tone.stop(start + offset + 0.17);
    }
  }
}
