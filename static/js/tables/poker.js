// Poker table: the HOLD toggles of the draw. Which cards are held is kept here, on the
// client, until "Draw N" sends {"type": "draw", "hold": [cards]}; it survives the live
// updates that arrive while another player draws first.
(function () {
  "use strict";
  // The page's language (Django's JavaScript catalogue, /jsi18n/<lang>/); as written without it.
  const gettext = window.gettext || ((s) => s);
  const interpolate = window.interpolate || ((f, o) => f.replace(/%\((\w+)\)s/g, (m, k) => String(o[k])));
  window.cubicTables = window.cubicTables || {};

  let handKey = "";     // the hand the holds belong to: hand number + its cards
  let held = new Set(); // cards held
  let suggested = false; // the holds came from "Suggest holds" and were not changed since

  function render(root) {
    const cards = [...root.querySelectorAll("[data-myhand] li[data-card]")];
    cards.forEach((li) => {
      const on = held.has(li.dataset.card);
      li.classList.toggle("held", on);
      li.classList.toggle("discard", !on && held.size > 0);
      const hold = li.querySelector(".pk-hold");
      if (hold) {
        hold.setAttribute("aria-pressed", on ? "true" : "false");
        hold.textContent = on ? gettext("HELD") : gettext("HOLD");
      }
    });
    const draw = root.querySelector("[data-draw]");
    if (draw) {
      const n = cards.length - held.size;
      draw.textContent = n ? interpolate(gettext("Draw %(n)s"), { n: n }, true) : gettext("Stand pat");
    }
    const advice = root.querySelector("[data-advice]");
    const suggest = root.querySelector("[data-suggest]");
    if (advice && suggest && suggested) {
      const names = cards.filter((li) => held.has(li.dataset.card))
        .map((li) => li.querySelector("img.card").alt.replace(/ \(.*\)$/, ""));
      let text = names.length
        ? interpolate(gettext("Suggested: hold %(cards)s."), { cards: names.join(", ") }, true)
        : gettext("Suggested: draw five new cards.");
      const strength = suggest.dataset.strength;
      // The figure is the chance of beating three random hands: said only when three
      // players are in the hand against you.
      const rivals = root.querySelectorAll(".pk-seat:not(.folded):not(.out)").length;
      if (strength && rivals === 3) {
        text += " " + interpolate(gettext("After the draw it beats three random hands about %(percent)s of the time."), { percent: Math.round(Number(strength) * 100) + "%" }, true);
      }
      advice.textContent = text;
    }
  }

  // The showdown opens over the table when a hand ends at one, and closes on "Next hand" or
  // after SHOWDOWN_MS (the computer players wait about as long: the engine's pause()).
  const SHOWDOWN_MS = 6000;
  const showdown = { hand: undefined, start: 0, closed: false, timer: null };

  function openShowdown(root) {
    const box = root.querySelector("[data-showdown]");
    if (showdown.hand === undefined) {
      // The page has just opened: a showdown on it happened before.
      showdown.hand = box ? box.dataset.showdown : null;
      showdown.closed = true;
    }
    if (!box) return;
    if (showdown.hand !== box.dataset.showdown) {
      Object.assign(showdown, { hand: box.dataset.showdown, start: performance.now(), closed: false });
    }
    const left = SHOWDOWN_MS - (performance.now() - showdown.start);
    if (showdown.closed || left <= 0) return;
    box.classList.add("open");
    const next = box.querySelector("[data-next-hand]");
    const close = () => {
      showdown.closed = true;
      const had = box.contains(document.activeElement);
      box.classList.remove("open");
      // The keyboard goes on to the new hand's first action (or the table).
      if (had) (root.querySelector(".pk-controls button:not([disabled])") || root).focus();
    };
    next.addEventListener("click", close);
    // A keyboard player who was at the table lands on Next hand.
    const active = document.activeElement;
    if (!active || active === document.body || root.contains(active)) next.focus({ preventScroll: true });
    clearTimeout(showdown.timer);
    showdown.timer = setTimeout(close, left);
  }

  window.cubicTables.poker = {
    init(root, cubic) {
      openShowdown(root);
      const mine = root.querySelector("[data-you][data-drawing]");
      if (!mine) {
        handKey = "";
        held = new Set();
        suggested = false;
        return;
      }
      const cards = [...mine.querySelectorAll("li[data-card]")].map((li) => li.dataset.card);
      const key = root.querySelector(".pk").dataset.hand + ":" + cards.join(",");
      if (key !== handKey) {
        handKey = key;
        held = new Set();
        suggested = false;
      }
      mine.querySelectorAll("[data-toggle]").forEach((button) => {
        button.addEventListener("click", (event) => {
          if (event.detail) button.blur(); // a pointer click: keep the number keys working
          const card = button.closest("li[data-card]").dataset.card;
          if (held.has(card)) held.delete(card); else held.add(card);
          suggested = false;
          render(root);
        });
      });
      const suggest = root.querySelector("[data-suggest]");
      if (suggest) {
        suggest.addEventListener("click", () => {
          const positions = JSON.parse(suggest.dataset.suggest || "[]");
          held = new Set(positions.map((i) => cards[i]));
          suggested = true;
          render(root);
        });
      }
      const draw = root.querySelector("[data-draw]");
      if (draw) {
        draw.addEventListener("click", () => {
          if (draw.disabled) return;
          draw.disabled = true;
          setTimeout(() => { if (document.body.contains(draw)) draw.disabled = false; }, 4000);
          cubic.act({ type: "draw", hold: cards.filter((c) => held.has(c)) });
        });
      }
      render(root);
    },
  };
})();
