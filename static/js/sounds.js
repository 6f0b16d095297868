// The table's card sounds (static/sounds/, made by scripts/make_sounds.py): off until the
// player turns them on with the title bar's switch, and the choice is remembered on this
// device. A card played makes a tap, a new game a swish, a game you won three rising notes.
(function () {
  "use strict";
  const KEY = "cubic:sounds";
  let heard = null; // {game, seq, over}: the table as last heard, so each change sounds once

  const on = () => localStorage.getItem(KEY) === "1";

  function play(name) {
    const button = document.querySelector("[data-sounds]");
    if (!on() || !button || !button.dataset[name]) return;
    document.documentElement.dataset.sound = name; // the last sound made, for the browser suite
    const audio = new Audio(button.dataset[name]);
    audio.volume = 0.5;
    audio.play().catch(() => undefined); // a browser may refuse before the first tap: stay quiet
  }

  function setUp() {
    const button = document.querySelector("[data-sounds]");
    if (button) {
      button.setAttribute("aria-pressed", on() ? "true" : "false");
      button.onclick = () => {
        localStorage.setItem(KEY, on() ? "0" : "1");
        button.setAttribute("aria-pressed", on() ? "true" : "false");
      };
    }
    const main = document.getElementById("room-main");
    const now = main && {
      game: main.dataset.gameId || "",
      seq: Number(main.dataset.seq || -1),
      over: main.dataset.over === "1",
    };
    if (heard && now && now.game) {
      if (now.game !== heard.game) play("deal");
      else if (now.over && !heard.over) { if (main.querySelector("[data-you-won]")) play("win"); else play("play"); }
      else if (now.seq > heard.seq) play("play");
    }
    heard = now;
  }

  document.body.addEventListener("htmx:wsAfterMessage", setUp);
  document.addEventListener("DOMContentLoaded", setUp);
})();
