// Cardice table: rolls the die when it is rolled (not on every update), keeps the last trick
// and the score sheet open or closed across live updates, and keeps the keyboard focus on
// the table when the table is re-drawn.
(function () {
  "use strict";
  window.cubicTables = window.cubicTables || {};
  const calm = window.matchMedia("(prefers-reduced-motion: reduce)");
  const kept = {}; // details name -> open
  let unrolledRound = null; // the round whose die we last saw not rolled yet
  let focusKey = null; // the control that had the focus before an update
  let focusSeq = null; // ...and the state it belonged to
  let focusInTable = false;

  document.body.addEventListener("htmx:wsBeforeMessage", () => {
    const active = document.activeElement;
    const main = document.getElementById("room-main");
    if (!main || !active || active === document.body) return;
    focusInTable = main.contains(active);
    const keyed = focusInTable && active.closest("[data-key]");
    focusKey = keyed ? keyed.dataset.key : null;
    focusSeq = main.dataset.seq;
  });

  function rollDie(root) {
    const table = root.querySelector(".cd");
    const die = root.querySelector("[data-die]");
    if (!table || !die) return;
    const round = table.dataset.round;
    if (!die.dataset.die) {
      unrolledRound = round;
    } else if (unrolledRound === round) {
      unrolledRound = null;
      if (!calm.matches) die.classList.add("rolling");
    }
  }

  function keepOpen(root) {
    root.querySelectorAll("details[data-keep]").forEach((box) => {
      const name = box.dataset.keep;
      if (name in kept) box.open = kept[name];
      box.addEventListener("toggle", () => { kept[name] = box.open; });
    });
  }

  function keepFocus(root) {
    if (!focusInTable) return;
    // The same state drawn again: the same control. A new state: what there is to do now
    // (the round-1 bid in round 2, else a playable card, the bid pad, the Roll button).
    const same = root.dataset.seq === focusSeq && focusKey && root.querySelector(`[data-key="${focusKey}"]`);
    const next = same || root.querySelector("[data-autofocus]")
      || root.querySelector("[data-hand] [data-key], [data-controls] [data-key]");
    if (next) next.focus({ preventScroll: true });
  }

  window.cubicTables.cardice = {
    init(root) {
      rollDie(root);
      keepOpen(root);
      keepFocus(root);
    },
  };
})();
