// Sounds of the room: a move, a capture, your turn and low time, synthesised with the Web Audio API (no sound
// files to fetch or cache). Each is a fraction of a second and quiet: they say something happened, they do not
// startle. A mute switch in the header keeps its state in localStorage, so it holds across visits.
// Self-contained (no imports) and without side effects on import, so the Node unit tests load it as it is.

const kMutedKey = 'cinq.sound.muted';
const kSvg = 'http://www.w3.org/2000/svg';

// One note: an oscillator (or white noise through a band-pass filter) from `at` seconds after the start, for
// `dur` seconds, its pitch sliding from `freq` to `to`, at its peak `gain` (before the master volume).
const kSounds = {
  // A soft wooden tock.
  move: [{wave: 'triangle', freq: 560, to: 380, at: 0, dur: 0.08, gain: 0.5}],
  // A lower knock with a little rattle: a piece taken off.
  capture: [
    {wave: 'triangle', freq: 300, to: 140, at: 0, dur: 0.14, gain: 0.6},
    {noise: true, freq: 1800, at: 0, dur: 0.07, gain: 0.35},
    {wave: 'triangle', freq: 420, to: 260, at: 0.07, dur: 0.08, gain: 0.35},
  ],
  // Two rising notes, a short chime.
  turn: [
    {wave: 'sine', freq: 660, to: 660, at: 0, dur: 0.12, gain: 0.35},
    {wave: 'sine', freq: 880, to: 880, at: 0.1, dur: 0.18, gain: 0.35},
  ],
  // Two short high ticks.
  low: [
    {wave: 'square', freq: 1000, to: 1000, at: 0, dur: 0.05, gain: 0.12},
    {wave: 'square', freq: 1000, to: 1000, at: 0.14, dur: 0.05, gain: 0.12},
  ],
};

// The whole output's volume: everything above is scaled by it, so all sounds stay quiet together.
const kMasterGain = 0.25;

// Plays the sounds; the one instance is `sound` below. The audio context is made on first use, and resumed on
// the first click or key press (browsers keep it suspended until the user did something on the page).
// The switch's words when none are given.
const kSwitchWords = {
  on: 'Sound on',
  off: 'Sound off',
  on_title: 'Sounds are on: click to mute them',
  off_title: 'Sounds are off: click to turn them on',
};

class Sound {
  constructor() {
    this.context_ = null;
    this.master_ = null;
    this.noise_ = null;
    this.switches_ = new Set();
    this.muted_fallback_ = false;
    // What was played, oldest first (for browser tests: window.cinqSound.played). Muted sounds are not in it.
    this.played = [];
  }

  // Whether sounds are off: kept in localStorage, so a reload or another visit keeps the choice.
  get muted() {
    try {
      return globalThis.localStorage.getItem(kMutedKey) === '1';
    } catch {
      return this.muted_fallback_;  // no storage (a private mode that refuses it): this page's choice
    }
  }

  set muted(value) {
    this.muted_fallback_ = Boolean(value);
    try {
      if (value) {
        globalThis.localStorage.setItem(kMutedKey, '1');
      } else {
        globalThis.localStorage.removeItem(kMutedKey);
      }
    } catch {
      // Kept in muted_fallback_ for this page.
    }
    this.changed();
  }

  // Redraws the switches (also after another tab changed the stored choice: a `storage` event).
  changed() {
    for (const update of this.switches_) update();
  }

  // kind: 'move', 'capture', 'turn' or 'low'. Never throws: a page without audio just stays silent.
  play(kind) {
    if (!kSounds[kind] || this.muted) return;
    this.played.push(kind);
    if (this.played.length > 200) this.played.splice(0, 100);
    try {
      const context = this.context_ || this.make_context_();
      if (!context) return;
      if (context.state === 'suspended') context.resume().catch(() => {});
      const start = context.currentTime + 0.01;
      for (const note of kSounds[kind]) this.note_(context, start, note);
    } catch (err) {
      console.warn('cinq: sound failed', err);
    }
  }

  // Resumes the audio context from a user gesture (browsers allow sound only after one).
  unlock() {
    if (this.muted) return;
    try {
      const context = this.context_ || this.make_context_();
      if (context && context.state === 'suspended') context.resume().catch(() => {});
    } catch {
      // Silent: no audio here.
    }
  }

  // The header's switch: a button whose text says the state ("Sound on", "Sound off"; a label that changes
  // rather than aria-pressed, so the name read out and the text seen agree). `words`: its texts in the
  // reader's language (social.js gives them; this module stays free of imports). Returns the node.
  make_switch(document, words = kSwitchWords) {
    const button = document.createElement('button');
    button.type = 'button';
    button.id = 'sound-switch';
    button.className = 'header-switch sound-switch';
    const icon = document.createElementNS(kSvg, 'svg');
    icon.setAttribute('viewBox', '0 0 24 24');
    icon.setAttribute('class', 'header-switch-icon');
    icon.setAttribute('aria-hidden', 'true');
    const speaker = document.createElementNS(kSvg, 'path');
    speaker.setAttribute('d', 'M4 9h4l5-4v14l-5-4H4z');
    speaker.setAttribute('fill', 'currentColor');
    const mark = document.createElementNS(kSvg, 'path');
    mark.setAttribute('fill', 'none');
    mark.setAttribute('stroke', 'currentColor');
    mark.setAttribute('stroke-width', '2');
    mark.setAttribute('stroke-linecap', 'round');
    icon.append(speaker, mark);
    const label = document.createElement('span');
    label.className = 'header-switch-label';
    button.append(icon, label);
    const update = () => {
      const muted = this.muted;
      button.dataset.muted = String(muted);
      button.title = muted ? words.off_title : words.on_title;
      // Muted: a cross beside the speaker; on: two sound waves.
      mark.setAttribute('d', muted ? 'M16 9l6 6M22 9l-6 6' : 'M16 9a4 4 0 0 1 0 6M18.5 6.5a7.5 7.5 0 0 1 0 11');
      label.textContent = muted ? words.off : words.on;
    };
    button.addEventListener('click', () => {
      this.muted = !this.muted;
      if (!this.muted) this.play('move');  // a sample, so the player hears the volume
    });
    this.switches_.add(update);
    update();
    return button;
  }

  make_context_() {
    const Context = globalThis.AudioContext || globalThis.webkitAudioContext;
    if (!Context) return null;
    this.context_ = new Context();
    this.master_ = this.context_.createGain();
    this.master_.gain.value = kMasterGain;
    this.master_.connect(this.context_.destination);
    return this.context_;
  }

  note_(context, start, note) {
    const t0 = start + note.at;
    const t1 = t0 + note.dur;
    const envelope = context.createGain();
    // A 5 ms attack and an exponential decay: no click at either end.
    envelope.gain.setValueAtTime(0.0001, t0);
    envelope.gain.linearRampToValueAtTime(note.gain, t0 + 0.005);
    envelope.gain.exponentialRampToValueAtTime(0.0001, t1);
    envelope.connect(this.master_);
    let source;
    if (note.noise) {
      source = context.createBufferSource();
      source.buffer = this.noise_buffer_(context);
      const filter = context.createBiquadFilter();
      filter.type = 'bandpass';
      filter.frequency.value = note.freq;
      source.connect(filter);
      filter.connect(envelope);
    } else {
      source = context.createOscillator();
      source.type = note.wave;
      source.frequency.setValueAtTime(note.freq, t0);
      if (note.to !== note.freq) source.frequency.exponentialRampToValueAtTime(note.to, t1);
      source.connect(envelope);
    }
    source.start(t0);
    source.stop(t1 + 0.02);
  }

  noise_buffer_(context) {
    if (!this.noise_) {
      const length = Math.floor(context.sampleRate * 0.2);
      this.noise_ = context.createBuffer(1, length, context.sampleRate);
      const data = this.noise_.getChannelData(0);
      for (let i = 0; i < length; ++i) data[i] = Math.random() * 2 - 1;
    }
    return this.noise_;
  }
}

export const sound = new Sound();

// Each game's count of a side's pieces, its board module's `pieces_left(view, side)` (a number, fewer when a
// piece was taken; null where the game has no pieces of a side to lose), by game once its module is loaded:
// pieces_counter(game) starts loading it and answers null until then (the room's board has it loaded already).
const kCounters = new Map();
export function pieces_counter(game) {
  if (!game) return null;
  if (!kCounters.has(game)) {
    kCounters.set(game, null);
    import(`./boards/${game}.js`).then(
        (module) => kCounters.set(game, typeof module.pieces_left === 'function' ? module.pieces_left : null),
        () => {});
  }
  return kCounters.get(game);
}

// Whether a play took pieces of the mover's opponent: `before` and `after` are the views around it,
// `opponent` the opponent's side letter and `pieces_left` the game's count (pieces_counter).
export function is_capture(before, after, opponent, pieces_left) {
  if (typeof pieces_left !== 'function' || !before || !after || !opponent) return false;
  const was = pieces_left(before, opponent);
  const now = pieces_left(after, opponent);
  return typeof was === 'number' && typeof now === 'number' && now < was;
}
