// Optional sounds at the table: your turn, a move played, the end of the game. Off until the
// person switches them on (remembered in localStorage); made with WebAudio oscillators, so no
// sound files are needed.

const KEY = "partida.sound";

// Each sound: notes of [frequency Hz, start s, length s], a wave shape and a loudness.
const SOUNDS = {
  turn: { wave: "sine", gain: 0.18, notes: [[660, 0, 0.12], [880, 0.13, 0.2]] },
  move: { wave: "triangle", gain: 0.12, notes: [[330, 0, 0.07]] },
  end: { wave: "sine", gain: 0.16, notes: [[523, 0, 0.16], [659, 0.16, 0.16], [784, 0.32, 0.34]] },
};

let audio = null;
let remembered = false; // the choice when localStorage cannot keep it (private mode)
const played = []; // the names of the sounds played, newest last (browser tests read it)
if (typeof window !== "undefined") window.partidaSound = { played };

export function soundOn() {
  try {
    return localStorage.getItem(KEY) === "1";
  } catch {
    return remembered;
  }
}

function context() {
  const Ctor = window.AudioContext || window.webkitAudioContext;
  if (!Ctor) return null;
  if (!audio) audio = new Ctor();
  // Browsers start a context suspended until the page is used; the switch is such a use.
  if (audio.state === "suspended") audio.resume().catch(() => {});
  return audio;
}

/** Play one of the sounds (turn, move, end) if the person switched sounds on. */
export function playSound(name) {
  const sound = SOUNDS[name];
  if (!sound || !soundOn()) return false;
  const ctx = context();
  if (!ctx) return false;
  const start = ctx.currentTime + 0.01;
  for (const [freq, at, length] of sound.notes) {
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.type = sound.wave;
    osc.frequency.value = freq;
    // A short attack and a decay: a chime, not a click.
    gain.gain.setValueAtTime(0.0001, start + at);
    gain.gain.exponentialRampToValueAtTime(sound.gain, start + at + 0.015);
    gain.gain.exponentialRampToValueAtTime(0.0001, start + at + length);
    osc.connect(gain).connect(ctx.destination);
    osc.start(start + at);
    osc.stop(start + at + length + 0.02);
  }
  played.push(name);
  if (played.length > 50) played.shift();
  return true;
}

/** Switch sounds on or off (and remember it); on, a short chime says they work. */
export function setSound(on) {
  remembered = on;
  try {
    localStorage.setItem(KEY, on ? "1" : "0");
  } catch {
    /* private mode: the choice lasts as long as the page */
  }
  if (on) playSound("move");
}

// Resume a context left suspended by the browser at the first use of a page where sounds
// were switched on earlier.
if (typeof document !== "undefined") {
  document.addEventListener(
    "pointerdown",
    () => {
      if (audio && audio.state === "suspended") audio.resume().catch(() => {});
    },
    { capture: true },
  );
}
