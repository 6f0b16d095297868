// Gin Rummy and Thirteen tables (lobby/templates/tables/gin.html, thirteen.html): pick a card,
// arrange your hand (drag, or the arrows and arrow keys), draw from a pile, and throw the
// picked card with Discard / Knock (Gin) or Turn done / Go out (Thirteen).
// The order you give your hand stays in this browser (sessionStorage): the server never sees
// it. The page's only game data is the server-rendered view: the cards and their data-*
// attributes, and the "rm-legal" JSON (this seat's legal actions).
(function () {
  "use strict";
  // The page's language (Django's JavaScript catalogue, /jsi18n/<lang>/); as written without it.
  const gettext = window.gettext || ((s) => s);
  const interpolate = window.interpolate || ((f, o) => f.replace(/%\((\w+)\)s/g, (m, k) => String(o[k])));
  const DRAG_START_PX = 8;
  // What throwing the picked card is called: the plain discard, and the one that ends the hand.
  const THROWS = {
    gin: { discard: "discard", end: "knock" },
    thirteen: { discard: "discard", end: "go_out" },
  };

  // Client-only state that must outlive each re-render of the table.
  const mem = {
    picked: null, // the card picked in your hand
    suppressClick: false,
    hintSeq: null,
  };

  const seqOf = () => {
    const main = document.getElementById("room-main");
    return main ? main.dataset.seq : "";
  };
  const hand = (section) => section.querySelector("[data-hand]");
  const cards = (section) => [...section.querySelectorAll("[data-hand] > li")];
  const cardLi = (section, card) => section.querySelector(`[data-hand] > li[data-card="${card}"]`);

  function legal(section) {
    const script = section.querySelector("#rm-legal");
    try {
      return script ? JSON.parse(script.textContent) : [];
    } catch (e) {
      return [];
    }
  }

  function allowed(section, action) {
    return section._rmLegal.some((a) => Object.keys(action).every((k) => a[k] === action[k]));
  }

  function send(section, action) {
    if (!allowed(section, action)) return;
    mem.picked = null;
    window.cubic.act(action);
  }

  // ---- your own order -------------------------------------------------------------------------

  function storeKey(section) {
    return `cubic:rummy:${section.dataset.game}:${section.dataset.deal}`;
  }

  function savedOrder(section) {
    try {
      return JSON.parse(sessionStorage.getItem(storeKey(section)) || "null");
    } catch (e) {
      return null;
    }
  }

  function saveOrder(section) {
    try {
      // One order per game: the last hand's is of no more use.
      const game = `cubic:rummy:${section.dataset.game}:`;
      Object.keys(sessionStorage)
        .filter((k) => k.startsWith(game) && k !== storeKey(section))
        .forEach((k) => sessionStorage.removeItem(k));
      sessionStorage.setItem(storeKey(section), JSON.stringify(cards(section).map((li) => li.dataset.card)));
    } catch (e) {
      /* private browsing: the order lasts until the next update */
    }
  }

  // Your saved order first; a card new to the hand goes to the right end.
  function applyOrder(section) {
    const order = savedOrder(section);
    const list = hand(section);
    if (!order || !list) return;
    const rank = new Map(order.map((c, i) => [c, i]));
    const lis = cards(section);
    lis.sort((a, b) => (rank.get(a.dataset.card) ?? 1e6) - (rank.get(b.dataset.card) ?? 1e6));
    lis.forEach((li) => list.appendChild(li));
  }

  // A meld (combination) starts a new group; so do the loose cards after a meld.
  function markGroups(section) {
    let previous = null;
    cards(section).forEach((li) => {
      li.classList.toggle("rm-gap", previous !== null && previous.dataset.meld !== li.dataset.meld);
      li.classList.toggle(
        "rm-join",
        previous !== null && li.dataset.meld !== "" && previous.dataset.meld === li.dataset.meld,
      );
      previous = li;
    });
  }

  function moveBy(section, card, step) {
    const li = cardLi(section, card);
    if (!li) return;
    const lis = cards(section);
    const to = lis.indexOf(li) + step;
    if (to < 0 || to >= lis.length) return;
    if (step < 0) lis[to].before(li);
    else lis[to].after(li);
    saveOrder(section);
    markGroups(section);
    const pick = li.querySelector(".rm-pick");
    if (pick) pick.focus();
  }

  function sortByMelds(section) {
    try {
      sessionStorage.removeItem(storeKey(section));
    } catch (e) {
      /* nothing saved */
    }
    const list = hand(section);
    section._rmServerOrder.forEach((card) => {
      const li = cardLi(section, card);
      if (li) list.appendChild(li);
    });
    markGroups(section);
  }

  // ---- picking a card, and the buttons that throw it ---------------------------------------------

  function decorate(section) {
    const step = section.dataset.step;
    const kind = section.dataset.kind;
    let li = mem.picked ? cardLi(section, mem.picked) : null;
    if (!li) mem.picked = null;
    cards(section).forEach((c) => {
      const on = c === li;
      c.classList.toggle("picked", on);
      const pick = c.querySelector(".rm-pick");
      if (pick) pick.setAttribute("aria-pressed", on ? "true" : "false");
    });
    const move = section.querySelector("[data-move]");
    if (move) move.hidden = !li;
    const discard = section.querySelector('[data-throw="discard"]');
    const end = section.querySelector('[data-throw="end"]');
    const staged = section.querySelector("[data-staged]");
    const throwing = step === "discard" && li && !li.classList.contains("keep");
    if (staged) {
      staged.hidden = !throwing;
      staged.textContent = throwing ? li.dataset.label : "";
    }
    const pile = section.querySelector(".rm-discard");
    if (pile) pile.classList.toggle("rm-target", !!throwing);
    if (discard) {
      discard.disabled = !throwing;
      if (kind === "thirteen") {
        discard.textContent = gettext("Turn done");
      } else {
        discard.textContent = throwing ? interpolate(gettext("Discard %(card)s"), { card: li.dataset.label }, true) : gettext("Discard");
      }
    }
    if (end) {
      const can = throwing && li.dataset.can === "1";
      end.hidden = !can;
      if (can) {
        if (kind === "thirteen") end.textContent = gettext("Go out");
        else end.textContent = li.dataset.after === "0" ? gettext("Gin!") : interpolate(gettext("Knock (%(points)s)"), { points: li.dataset.after }, true);
      }
    }
    const say = section.querySelector("[data-pick-say]");
    if (say) {
      if (step === "discard" && li && li.classList.contains("keep")) {
        say.textContent = interpolate(gettext("You can't throw back the %(card)s you just took."), { card: li.dataset.label }, true);
      } else if (throwing && li.dataset.after !== "") {
        const said = kind === "thirteen"
          ? gettext("Throwing the %(card)s leaves %(points)s left over.")
          : gettext("Throwing the %(card)s leaves %(points)s deadwood.");
        say.textContent = interpolate(said, { card: li.dataset.label, points: li.dataset.after }, true);
      } else {
        say.textContent = "";
      }
    }
  }

  function pick(section, li) {
    mem.picked = mem.picked === li.dataset.card ? null : li.dataset.card;
    decorate(section);
  }

  function throwPicked(section, which) {
    const type = THROWS[section.dataset.kind][which];
    if (mem.picked && type) send(section, { type: type, card: mem.picked });
  }

  // ---- clicks and keys ---------------------------------------------------------------------

  function onClick(section, event) {
    if (mem.suppressClick) {
      mem.suppressClick = false;
      return;
    }
    const card = event.target.closest("[data-hand] > li");
    if (card) return pick(section, card);
    const draw = event.target.closest("[data-draw]");
    if (draw && !draw.disabled) {
      if (section.dataset.step === "draw") return send(section, { type: "draw", from: draw.dataset.draw });
      // In Gin a tap on the pile throws the picked card there; in Thirteen it is Turn done's job.
      if (draw.hasAttribute("data-drop") && section.dataset.kind === "gin") return throwPicked(section, "discard");
      return;
    }
    const thrown = event.target.closest("[data-throw]");
    if (thrown && !thrown.disabled) return throwPicked(section, thrown.dataset.throw);
    const shift = event.target.closest("[data-shift]");
    if (shift && mem.picked) return moveBy(section, mem.picked, Number(shift.dataset.shift));
    if (event.target.closest("[data-sort]")) return sortByMelds(section);
    if (event.target.closest("[data-hint]")) return askHint(event.target.closest("[data-hint]"));
  }

  function onKey(section, event) {
    const card = event.target.closest("[data-hand] > li");
    if (!card || (event.key !== "ArrowLeft" && event.key !== "ArrowRight")) return;
    event.preventDefault();
    mem.picked = card.dataset.card;
    decorate(section);
    moveBy(section, card.dataset.card, event.key === "ArrowLeft" ? -1 : 1);
  }

  // ---- drag: a card moves within your hand, or onto the discard pile ----------------------------

  function onPointerDown(section, event) {
    const li = event.target.closest("[data-hand] > li");
    if (!li || event.button !== 0) return;
    const start = { x: event.clientX, y: event.clientY };
    let drag = null;
    const move = (e) => {
      if (!drag) {
        if (Math.hypot(e.clientX - start.x, e.clientY - start.y) < DRAG_START_PX) return;
        drag = beginDrag(li);
      }
      e.preventDefault();
      drag.ghost.style.transform = `translate(${e.clientX - start.x}px, ${e.clientY - start.y}px)`;
      drag.target = dropTarget(section, li, e.clientX, e.clientY);
      showTarget(section, drag.target);
    };
    const up = (e) => {
      document.removeEventListener("pointermove", move);
      document.removeEventListener("pointerup", up);
      document.removeEventListener("pointercancel", up);
      if (!drag) return;
      mem.suppressClick = true;
      setTimeout(() => (mem.suppressClick = false), 0);
      drag.ghost.remove();
      li.classList.remove("rm-lifted");
      showTarget(section, null);
      const target = e.type === "pointerup" ? drag.target : null;
      if (!target) return;
      if (target.pile) {
        mem.picked = li.dataset.card;
        decorate(section);
        if (section.dataset.kind === "gin") throwPicked(section, "discard");
        return;
      }
      if (target.before) target.before.before(li);
      else hand(section).appendChild(li);
      saveOrder(section);
      markGroups(section);
    };
    document.addEventListener("pointermove", move, { passive: false });
    document.addEventListener("pointerup", up);
    document.addEventListener("pointercancel", up);
  }

  function beginDrag(li) {
    const img = li.querySelector("img.card");
    const box = img.getBoundingClientRect();
    const ghost = img.cloneNode(true);
    ghost.className = "card rm-ghost";
    ghost.style.left = box.left + "px";
    ghost.style.top = box.top + "px";
    ghost.style.width = box.width + "px";
    document.body.appendChild(ghost);
    li.classList.add("rm-lifted");
    return { ghost: ghost, target: null };
  }

  // Over the discard pile while you may throw (and the card isn't the one just taken), or
  // over your hand: before the first card whose middle is right of the pointer.
  function dropTarget(section, li, x, y) {
    const pile = section.querySelector(".rm-discard");
    if (pile && section.dataset.step === "discard" && !li.classList.contains("keep")) {
      const r = pile.getBoundingClientRect();
      if (x >= r.left && x <= r.right && y >= r.top && y <= r.bottom) return { pile: true };
    }
    const r = hand(section).getBoundingClientRect();
    if (y < r.top - 40 || y > r.bottom + 40) return null;
    const others = cards(section).filter((c) => c !== li);
    const before = others.find((c) => {
      const b = c.getBoundingClientRect();
      return x < b.left + b.width / 2;
    });
    return { before: before || null };
  }

  function showTarget(section, target) {
    section.querySelectorAll(".rm-drop-before, .rm-drop-end, .rm-drop-pile").forEach((el) =>
      el.classList.remove("rm-drop-before", "rm-drop-end", "rm-drop-pile"),
    );
    if (!target) return;
    if (target.pile) section.querySelector(".rm-discard").classList.add("rm-drop-pile");
    else if (target.before) target.before.classList.add("rm-drop-before");
    else hand(section).classList.add("rm-drop-end");
  }

  // ---- hint ---------------------------------------------------------------------------------

  function askHint(button) {
    const box = document.getElementById("table-hint");
    if (box) box.dataset.rmOld = "1"; // the answer replaces this element
    mem.hintSeq = seqOf();
    button.disabled = true;
    window.cubic.hint();
    // No answer (an error instead): the button comes back.
    setTimeout(() => {
      if (document.body.contains(button)) button.disabled = false;
    }, 10000);
  }

  function showHint(section) {
    const box = document.getElementById("table-hint");
    if (!box || mem.hintSeq === null) return;
    if (mem.hintSeq !== seqOf()) {
      box.textContent = ""; // the table moved on: the advice no longer applies
      box.hidden = true;
      mem.hintSeq = null;
      return;
    }
    if (box.dataset.rmOld) return;
    const button = section.querySelector("[data-hint]");
    if (button) button.disabled = false;
    let action = null;
    try {
      action = box.dataset.hintAction ? JSON.parse(box.dataset.hintAction) : null;
    } catch (e) {
      action = null;
    }
    if (!action) return;
    if (action.type === "draw") {
      const pile = section.querySelector(`.rm-piles [data-draw="${action.from}"]`);
      if (pile) pile.classList.add("rm-hinted");
    } else if (action.card) {
      mem.picked = action.card;
      decorate(section);
      const which = action.type === "discard" ? "discard" : "end";
      const button = section.querySelector(`[data-throw="${which}"]`);
      if (button) button.classList.add("rm-hinted");
    }
  }

  // ---- wiring -------------------------------------------------------------------------------

  function init(root) {
    const section = root.querySelector("section.rm");
    if (!section) return;
    if (!section.dataset.rmReady) {
      section.dataset.rmReady = "1";
      section.dataset.kind = root.dataset.kind;
      section._rmLegal = legal(section);
      section._rmServerOrder = cards(section).map((li) => li.dataset.card);
      document.querySelectorAll(".rm-ghost").forEach((g) => g.remove());
      applyOrder(section);
      markGroups(section);
      section.addEventListener("click", (e) => onClick(section, e));
      section.addEventListener("keydown", (e) => onKey(section, e));
      section.addEventListener("pointerdown", (e) => onPointerDown(section, e));
    }
    decorate(section);
    showHint(section);
  }

  window.cubicTables = window.cubicTables || {};
  window.cubicTables.gin = { init: init };
  window.cubicTables.thirteen = { init: init };
})();
