// Blackjack table: keeps the "Cash out…" confirmation open across live updates (a computer
// player's bet re-renders the table while a person is deciding), and paces the dealer's play:
// the server sends the whole round at once (hole card, draws, results); here the hole card
// turns, then each drawn card arrives in turn, then the results show.
(function () {
  "use strict";
  window.cubicTables = window.cubicTables || {};
  const STEP_MS = 450;
  const calm = window.matchMedia("(prefers-reduced-motion: reduce)");
  let cashOutOpen = false;
  let playedRound = null; // the round this page last saw in play
  const reveal = { round: null, start: 0 }; // the round whose ending is being shown, and since when

  function keepCashOut(root) {
    const box = root.querySelector("[data-cashout]");
    if (!box) {
      cashOutOpen = false;
      return;
    }
    box.open = cashOutOpen;
    box.addEventListener("toggle", () => { cashOutOpen = box.open; });
  }

  // Show the dealer's ending as if it were happening now, `elapsed` ms in. A redraw in the
  // middle (a computer player bets) picks up where the last one was.
  function pace(section, elapsed) {
    const cards = [...section.querySelectorAll(".bj-dealer .bj-cards.last img.card")];
    const back = section.querySelector(".bj-shoe img.card");
    const steps = [];
    cards.forEach((img, i) => {
      if (i === 0) return;
      const face = img.getAttribute("src");
      const at = (i - 1) * STEP_MS + STEP_MS / 2;
      if (i === 1 && back) img.setAttribute("src", back.getAttribute("src")); // still face down
      else img.style.visibility = "hidden";
      steps.push({ at: at, show: () => {
        img.setAttribute("src", face);
        img.style.visibility = "";
        img.classList.add("bj-arrive");
      } });
    });
    section.classList.add("bj-pacing");
    steps.push({ at: cards.length * STEP_MS, show: () => section.classList.remove("bj-pacing") });
    steps.forEach((step) => {
      const wait = step.at - elapsed;
      if (wait <= 0) step.show();
      else setTimeout(() => { if (document.body.contains(section)) step.show(); }, wait);
    });
  }

  function paceDealer(root) {
    const section = root.querySelector("section.bj");
    if (!section) return;
    const phase = section.dataset.phase;
    if (phase === "play") {
      playedRound = section.dataset.round;
      return;
    }
    const ended = section.dataset.lastRound;
    if (!ended || ended !== playedRound || calm.matches) return;
    if (reveal.round !== ended) {
      reveal.round = ended;
      reveal.start = performance.now();
    }
    const elapsed = performance.now() - reveal.start;
    const cards = section.querySelectorAll(".bj-dealer .bj-cards.last img.card").length;
    if (elapsed < cards * STEP_MS) pace(section, elapsed);
  }

  window.cubicTables.blackjack = {
    init(root) {
      keepCashOut(root);
      paceDealer(root);
    },
  };
})();
