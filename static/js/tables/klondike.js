// Klondike table: tap a card then its destination, double-tap to send it home, drag and drop
// with a mouse or pen, the Finish animation, the timer and the hint highlight.
// The page's only game data is the server-rendered view: the cards in the DOM and the
// "kl-movable" JSON (what may be picked up and where it may go).
(function () {
  "use strict";
  // The page's language (Django's JavaScript catalogue, /jsi18n/<lang>/); as written without it.
  const gettext = window.gettext || ((s) => s);
  const interpolate = window.interpolate || ((f, o) => f.replace(/%\((\w+)\)s/g, (m, k) => String(o[k])));
  const DOUBLE_TAP_MS = 380;
  const DRAG_START_PX = 6;
  const FLIGHT_MS = 380;
  const STAGGER_MS = 55;
  const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];

  // Client-only state that must survive the table being re-rendered after each action.
  const mem = {
    game: null, // game id the timer base belongs to
    base: null, // Date.now() at the game's start, on this client's clock
    timer: null,
    selected: null, // {pile, count, card}
    lastTap: null, // {key, t}
    busy: false, // the Finish animation is running
    hintSeq: null, // seq at which a hint was asked for
    suppressClick: false,
    focusCard: null, // the card to focus once the table that moved it arrives
  };

  const reducedMotion = () => window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  const rankOf = (card) => RANKS.indexOf(card.slice(0, -1)) + 1;
  const seqOf = () => {
    const main = document.getElementById("room-main");
    return main ? main.dataset.seq : "";
  };

  function movable(section) {
    const script = section.querySelector("#kl-movable");
    const map = new Map();
    if (!script) return map;
    try {
      JSON.parse(script.textContent).forEach((m) => map.set(m.from + ":" + m.count, m));
    } catch (e) {
      /* an empty table */
    }
    return map;
  }

  function entryFor(section, el) {
    if (!el || !el.dataset.count) return null;
    return section._klMovable.get(el.dataset.pile + ":" + el.dataset.count) || null;
  }

  function cardEl(section, pile, card) {
    return section.querySelector(`.kl-c[data-pile="${pile}"][data-card="${card}"]`);
  }

  function groupOf(el) {
    const group = [el];
    if (el.parentElement && el.parentElement.classList.contains("kl-col")) {
      let next = el.nextElementSibling;
      while (next) {
        group.push(next);
        next = next.nextElementSibling;
      }
    }
    return group;
  }

  function destEl(section, name) {
    return section.querySelector(`[data-dest="${name}"]`);
  }

  // ---- sending ------------------------------------------------------------------------------

  function send(action) {
    mem.selected = null;
    // A card put down from the keyboard keeps the focus in its new place.
    const from = document.activeElement;
    mem.focusCard = action.card && from && from.closest && from.closest(".kl") ? action.card : null;
    window.cubic.act(action);
  }

  function refocus(section) {
    if (!mem.focusCard) return;
    const card = section.querySelector(`.kl-c[data-card="${mem.focusCard}"][tabindex]`);
    mem.focusCard = null;
    if (card) card.focus({ preventScroll: true });
  }

  // ---- selection and highlights ------------------------------------------------------------

  function decorate(section) {
    section.querySelectorAll(".sel, .sel-group, .kl-target").forEach((el) =>
      el.classList.remove("sel", "sel-group", "kl-target"),
    );
    const playing = section.dataset.play === "1";
    section.querySelectorAll(".kl-c[data-count]").forEach((el) => {
      const entry = entryFor(section, el);
      el.classList.toggle("movable", playing && !!entry && (entry.to.length > 0 || !!entry.auto));
    });
    const sel = mem.selected;
    if (sel && playing) {
      const el = cardEl(section, sel.pile, sel.card);
      const entry = entryFor(section, el);
      if (!el || !entry || el.dataset.count !== String(sel.count)) {
        mem.selected = null;
      } else {
        sel.to = entry.to;
        groupOf(el).forEach((c, i) => c.classList.add(i ? "sel-group" : "sel"));
        entry.to.forEach((name) => {
          const d = destEl(section, name);
          if (d) d.classList.add("kl-target");
        });
      }
    }
    pressable(section);
  }

  // Every card that can move, and every place the picked card can go, is a button for the
  // keyboard too: Tab to it, Enter or Space picks it up or puts it down (table.js). A place
  // that holds cards is pressed through its top card (a button never holds another).
  function pressable(section) {
    const drops = new Set();
    section.querySelectorAll("[data-dest].kl-target").forEach((dest) => {
      drops.add([...dest.querySelectorAll(".kl-c[data-card]")].pop() || dest);
    });
    section.querySelectorAll(".kl-c[data-card], [data-dest]").forEach((el) => {
      ["tabindex", "role", "aria-pressed", "aria-label"].forEach((a) => el.removeAttribute(a));
      if (el.dataset.dest && !el.dataset.label) el.dataset.label = el.getAttribute("aria-label") || "";
      if (el.dataset.dest) {
        el.setAttribute("role", "group");
        el.setAttribute("aria-label", el.dataset.label);
      }
      const drop = drops.has(el);
      if (!drop && !el.classList.contains("movable")) return;
      el.setAttribute("tabindex", "0");
      el.setAttribute("role", "button");
      if (drop) {
        const dest = el.closest("[data-dest]");
        const img = el.querySelector(":scope > img.card");
        const on = img ? interpolate(gettext(", on %(card)s"), { card: img.alt }, true) : gettext(", empty");
        el.setAttribute("aria-label", dest.dataset.label + on + gettext(": put it here"));
      } else {
        el.setAttribute("aria-pressed", el.classList.contains("sel") ? "true" : "false");
      }
    });
  }

  function onClick(section, event) {
    if (mem.busy) return;
    if (mem.suppressClick) {
      mem.suppressClick = false;
      return;
    }
    const button = event.target.closest("[data-act]");
    if (button) {
      if (button.disabled) return;
      if (button.dataset.confirm && !window.confirm(button.dataset.confirm)) return;
      send({ type: button.dataset.act });
      return;
    }
    if (event.target.closest("[data-kl-hint]")) return askHint(section, event.target.closest("[data-kl-hint]"));
    if (event.target.closest("[data-kl-finish]")) return finish(section);
    if (section.dataset.play !== "1") return;

    const card = event.target.closest(".kl-c[data-count]");
    const dest = event.target.closest("[data-dest]");
    const entry = entryFor(section, card);
    let double = false;
    if (card) {
      const key = `${card.dataset.pile}:${card.dataset.count}:${card.dataset.card}`;
      const now = performance.now();
      double = !!mem.lastTap && mem.lastTap.key === key && now - mem.lastTap.t < DOUBLE_TAP_MS;
      mem.lastTap = double ? null : { key: key, t: now };
      if (double && entry && entry.auto) {
        send({ type: "auto", card: card.dataset.card });
        return;
      }
    }
    const sel = mem.selected;
    if (sel && dest && sel.to && sel.to.includes(dest.dataset.dest)) {
      send({ type: "move", from: sel.pile, card: sel.card, to: dest.dataset.dest });
      return;
    }
    if (card && entry && entry.to.length) {
      const same = sel && sel.pile === card.dataset.pile && sel.card === card.dataset.card;
      if (!same) {
        mem.selected = { pile: card.dataset.pile, count: Number(card.dataset.count), card: card.dataset.card };
      } else if (!double) {
        mem.selected = null; // a second, slow tap puts the card back down
      }
    } else {
      mem.selected = null;
    }
    decorate(section);
  }

  // ---- drag and drop (mouse and pen; a finger scrolls the page) --------------------------------

  function onPointerDown(section, event) {
    if (mem.busy || section.dataset.play !== "1") return;
    if (event.pointerType === "touch" || event.button !== 0) return;
    const card = event.target.closest(".kl-c[data-count]");
    const entry = entryFor(section, card);
    if (!card || !entry || !entry.to.length) return;
    event.preventDefault(); // no text selection while dragging
    const start = { x: event.clientX, y: event.clientY };
    let drag = null;

    const move = (e) => {
      if (!drag) {
        if (Math.hypot(e.clientX - start.x, e.clientY - start.y) < DRAG_START_PX) return;
        drag = beginDrag(section, card, entry);
        mem.selected = { pile: card.dataset.pile, count: Number(card.dataset.count), card: card.dataset.card };
        decorate(section);
      }
      drag.ghost.style.transform = `translate(${e.clientX - start.x}px, ${e.clientY - start.y}px)`;
    };
    const up = (e) => {
      document.removeEventListener("pointermove", move);
      document.removeEventListener("pointerup", up);
      document.removeEventListener("pointercancel", up);
      if (!drag) return;
      mem.suppressClick = true;
      setTimeout(() => (mem.suppressClick = false), 0);
      const under = e.type === "pointerup" ? document.elementFromPoint(e.clientX, e.clientY) : null;
      const dest = under && under.closest(".kl [data-dest]");
      if (dest && entry.to.includes(dest.dataset.dest)) {
        // Leave the ghost where it was dropped until the new table arrives.
        send({ type: "move", from: card.dataset.pile, card: card.dataset.card, to: dest.dataset.dest });
        setTimeout(() => endDrag(drag), 2000);
      } else {
        drag.ghost.style.transition = reducedMotion() ? "none" : "transform .15s ease-out";
        drag.ghost.style.transform = "translate(0, 0)";
        setTimeout(() => endDrag(drag), reducedMotion() ? 0 : 160);
        mem.selected = null;
        decorate(section);
      }
    };
    document.addEventListener("pointermove", move);
    document.addEventListener("pointerup", up);
    document.addEventListener("pointercancel", up);
  }

  function beginDrag(section, card, entry) {
    const group = groupOf(card);
    const first = card.getBoundingClientRect();
    const ghost = document.createElement("div");
    ghost.className = "kl-ghost";
    ghost.style.left = first.left + "px";
    ghost.style.top = first.top + "px";
    ghost.style.setProperty("--card-w", first.width + "px");
    group.forEach((el) => {
      const r = el.getBoundingClientRect();
      const clone = el.cloneNode(true);
      clone.classList.remove("sel", "sel-group");
      clone.style.position = "absolute";
      clone.style.left = r.left - first.left + "px";
      clone.style.top = r.top - first.top + "px";
      ghost.appendChild(clone);
      el.classList.add("kl-lifted");
    });
    document.body.appendChild(ghost);
    return { ghost: ghost, group: group, entry: entry };
  }

  function endDrag(drag) {
    drag.ghost.remove();
    drag.group.forEach((el) => el.classList.remove("kl-lifted"));
  }

  // ---- Finish: every card flies to its foundation, then the action is sent ----------------------

  function cardUrl(section, card) {
    const face = section.querySelector('.kl-c[data-card] img.card');
    if (!face) return "";
    return face.getAttribute("src").replace(/\/[^/]+\.svg/, `/${card}.svg`);
  }

  function finish(section) {
    if (reducedMotion()) {
      send({ type: "finish" });
      return;
    }
    mem.busy = true;
    mem.selected = null;
    decorate(section);
    section.querySelectorAll(".kl-controls button").forEach((b) => (b.disabled = true));
    const home = {};
    section.querySelectorAll(".kl-found").forEach((f) => {
      const top = f.querySelector(".kl-c[data-card]");
      home[f.dataset.suit] = top ? rankOf(top.dataset.card) : 0;
    });
    const visible = {};
    section.querySelectorAll(".kl-col .kl-c[data-card], .kl-waste .kl-c[data-card]").forEach((el) => {
      visible[el.dataset.card] = el;
    });
    // Lowest ranks first: in a face-up column the lower card always lies on top, so this
    // order only ever takes cards that are free. Waste cards under the top come from the waste.
    const order = [];
    for (let r = 1; r <= 13; r++) {
      for (const s of "SHDC") if (home[s] < r) order.push(RANKS[r - 1] + s);
    }
    const waste = section.querySelector(".kl-waste");
    order.forEach((card, i) => {
      setTimeout(() => fly(section, card, visible[card] || waste), i * STAGGER_MS);
    });
    setTimeout(() => {
      mem.busy = false;
      send({ type: "finish" });
    }, order.length * STAGGER_MS + FLIGHT_MS + 120);
  }

  function fly(section, card, from, done) {
    const slot = section.querySelector(`.kl-found[data-suit="${card.slice(-1)}"]`);
    if (!slot || !from) return;
    const a = (from.querySelector("img.card") || from).getBoundingClientRect();
    const b = slot.getBoundingClientRect();
    const img = document.createElement("img");
    img.className = "card kl-flying";
    img.src = cardUrl(section, card);
    img.alt = "";
    img.style.left = a.left + "px";
    img.style.top = a.top + "px";
    img.style.width = b.width + "px";
    document.body.appendChild(img);
    if (from.classList.contains("kl-c")) from.style.visibility = "hidden";
    requestAnimationFrame(() =>
      requestAnimationFrame(() => {
        img.style.transition = `transform ${FLIGHT_MS}ms cubic-bezier(.3,.7,.4,1)`;
        img.style.transform = `translate(${b.left - a.left}px, ${b.top - a.top}px)`;
      }),
    );
    setTimeout(() => {
      let top = slot.querySelector(".kl-c");
      if (!top) {
        top = document.createElement("div");
        top.className = "kl-c up";
        top.innerHTML = '<img class="card card-md" alt="">';
        slot.appendChild(top);
      }
      const face = top.querySelector("img");
      face.src = img.src;
      face.alt = card;
      top.dataset.card = card;
      img.remove();
      if (done) done();
    }, FLIGHT_MS + 20);
  }

  // ---- hint -------------------------------------------------------------------------------

  function askHint(section, button) {
    const box = document.getElementById("table-hint");
    if (box) box.dataset.klOld = "1"; // the answer replaces this element
    mem.hintSeq = seqOf();
    button.disabled = true;
    button.textContent = gettext("Thinking…");
    window.cubic.hint();
    // No answer (an error instead): the button comes back.
    setTimeout(() => {
      if (document.body.contains(button) && button.disabled) {
        button.disabled = false;
        button.textContent = gettext("Hint");
      }
    }, 10000);
  }

  function showHint(section) {
    const box = document.getElementById("table-hint");
    const button = section.querySelector("[data-kl-hint]");
    if (!box || mem.hintSeq === null) return;
    if (mem.hintSeq !== seqOf()) {
      // The position moved on: the hint no longer applies.
      box.textContent = "";
      box.hidden = true;
      mem.hintSeq = null;
      return;
    }
    if (box.dataset.klOld) {
      if (button) {
        button.disabled = true;
        button.textContent = gettext("Thinking…");
      }
      return;
    }
    if (button) {
      button.disabled = false;
      button.textContent = gettext("Hint");
    }
    let action = null;
    try {
      action = box.dataset.hintAction ? JSON.parse(box.dataset.hintAction) : null;
    } catch (e) {
      action = null;
    }
    if (!action) return;
    const marks = [];
    if (action.type === "move" || action.type === "auto") {
      const el = section.querySelector(`.kl-c[data-card="${action.card}"]`);
      if (el) marks.push(el);
      if (action.to) marks.push(destEl(section, action.to));
    } else if (action.type === "draw" || action.type === "recycle") {
      marks.push(section.querySelector(".kl-stock"));
    } else {
      marks.push(section.querySelector(`[data-act="${action.type}"], [data-kl-${action.type}]`));
    }
    marks.forEach((m) => m && m.classList.add("kl-hinted"));
  }

  // ---- timer ------------------------------------------------------------------------------

  function clock(seconds) {
    seconds = Math.max(0, Math.floor(seconds));
    const m = Math.floor(seconds / 60);
    const s = seconds % 60;
    return `${String(m).padStart(2, "0")}:${String(s).padStart(2, "0")}`;
  }

  function startTimer(section) {
    clearInterval(mem.timer);
    const out = section.querySelector("[data-kl-timer]");
    if (!out) return;
    const started = Number(section.dataset.started);
    const now = Number(section.dataset.now);
    if (section.dataset.ended) {
      out.textContent = clock(Number(section.dataset.ended) - started);
      return;
    }
    if (mem.game !== section.dataset.game || mem.base === null) {
      // Fixed once per game, so re-rendering never makes the clock jump.
      mem.game = section.dataset.game;
      mem.base = Date.now() - (now - started) * 1000;
    }
    const tick = () => (out.textContent = clock((Date.now() - mem.base) / 1000));
    tick();
    if (!section.classList.contains("kl-over")) mem.timer = setInterval(tick, 1000);
  }

  // ---- wiring -------------------------------------------------------------------------------

  function init(root) {
    const section = root.querySelector("section.kl");
    if (!section) {
      clearInterval(mem.timer);
      return;
    }
    if (!section.dataset.klReady) {
      section.dataset.klReady = "1";
      section._klMovable = movable(section);
      section.addEventListener("click", (e) => onClick(section, e));
      section.addEventListener("pointerdown", (e) => onPointerDown(section, e));
      document.querySelectorAll(".kl-ghost, .kl-flying").forEach((g) => g.remove());
      mem.busy = false;
      startTimer(section);
    }
    decorate(section);
    refocus(section);
    showHint(section);
  }

  window.cubicTables = window.cubicTables || {};
  window.cubicTables.klondike = { init: init };
})();
