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
  let focusInTable = false;

  document.body.addEventListener("htmx:wsBeforeMessage", () => {
    const active = document.activeElement;
    const main = document.getElementById("room-main");
    if (!main || !active || active === document.body) return;
    focusInTable = main.contains(active);
    const keyed = focusInTable && active.closest("[data-key]");
    focusKey = keyed ? keyed.dataset.key : null;
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
    const same = focusKey && root.querySelector(`[data-key="${focusKey}"]`);
    // Else the first thing to do now: a playable card, the bid pad, the Roll button.
    const next = same || root.querySelector("[data-controls] [data-key], [data-hand] [data-key]");
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
