// Quick chat at a table: the Chat button's phrases, a bubble beside the seat that said one,
// and muting (a seat, or all chat), kept in this browser's localStorage. The table is redrawn
// on every move, so the bubbles live here and are put back beside their seats after each one.
(function () {
  "use strict";
  // The page's language (Django's JavaScript catalogue, /jsi18n/<lang>/); as written without it.
  const gettext = window.gettext || ((s) => s);
  const interpolate = window.interpolate || ((f, o) => f.replace(/%\((\w+)\)s/g, (m, k) => String(o[k])));
  const SHOWN_FOR = 4000; // ms a bubble stays
  const ALL_OFF = "cubic:chat:off"; // "1": no bubbles but your own
  let bubbles = []; // {seat, text, until}
  let heardLast = ""; // the data-said of the last phrase taken in
  let panelOpen = false;

  // Muted seats are kept by name for the room (seat numbers change from game to game).
  function muteKey() {
    const room = document.getElementById("room");
    return "cubic:chat:mute:" + (room ? room.dataset.code : "");
  }
  function mutedNames() {
    try {
      const names = JSON.parse(localStorage.getItem(muteKey()) || "[]");
      return new Set(Array.isArray(names) ? names : []);
    } catch (error) {
      return new Set();
    }
  }
  function setMuted(name, muted) {
    const names = mutedNames();
    if (muted) names.add(name); else names.delete(name);
    localStorage.setItem(muteKey(), JSON.stringify([...names]));
  }
  function allOff() { return localStorage.getItem(ALL_OFF) === "1"; }

  function mySeat() {
    const spot = document.querySelector("#room-main [data-chat-you]");
    return spot ? spot.dataset.chatSeat : null;
  }

  // A phrase just said at the table (lobby/_chat_said.html, swapped in by its id).
  function hear() {
    const said = document.getElementById("chat-said");
    if (!said || !said.dataset.said || said.dataset.said === heardLast) return;
    heardLast = said.dataset.said;
    const { seat, name, text } = said.dataset;
    if (seat !== mySeat() && (allOff() || mutedNames().has(name))) return;
    bubbles = bubbles.filter((b) => b.seat !== seat);
    bubbles.push({ seat: seat, text: text, until: Date.now() + SHOWN_FOR });
    const news = document.getElementById("chat-news");
    if (news) news.textContent = `${name}: ${text}`;
    draw();
    setTimeout(draw, SHOWN_FOR + 50);
  }

  function draw() {
    const now = Date.now();
    bubbles = bubbles.filter((b) => b.until > now);
    document.querySelectorAll(".chat-bubble").forEach((el) => el.remove());
    bubbles.forEach((b) => {
      const spot = document.querySelector(`#room-main [data-chat-seat="${CSS.escape(b.seat)}"]`);
      if (!spot) return;
      const bubble = document.createElement("span");
      bubble.className = "chat-bubble";
      bubble.setAttribute("aria-hidden", "true"); // #chat-news says it once
      bubble.textContent = b.text;
      // Only what is left of its time: a redraw puts it back, not for another 4 s.
      bubble.style.animationDelay = `${b.until - now - SHOWN_FOR}ms`;
      spot.appendChild(bubble);
    });
  }

  // The panel as it was before the table was redrawn (open or shut), with a mute switch for
  // each other seat at the table now.
  function panel() {
    const button = document.querySelector("#room-main [data-chat-button]");
    const box = document.getElementById("chat-panel");
    if (!button || !box) return;
    box.hidden = !panelOpen;
    button.setAttribute("aria-expanded", String(panelOpen));
    const off = box.querySelector("[data-chat-off]");
    off.checked = allOff();
    const list = box.querySelector("[data-chat-mutes]");
    const muted = mutedNames();
    const names = new Set();
    list.replaceChildren();
    document.querySelectorAll("#room-main [data-chat-seat]:not([data-chat-you])").forEach((spot) => {
      const name = spot.dataset.chatName;
      if (names.has(name)) return;
      names.add(name);
      const label = document.createElement("label");
      label.className = "toggle chat-mute";
      const mute = document.createElement("input");
      mute.type = "checkbox";
      mute.id = `chat-mute-${spot.dataset.chatSeat}`; // the focus finds it again after a redraw
      mute.dataset.chatMute = name;
      mute.checked = muted.has(name);
      label.append(mute, " " + interpolate(gettext("Mute %(name)s"), { name: name }, true));
      list.appendChild(label);
    });
  }

  document.addEventListener("click", (event) => {
    const button = event.target.closest("[data-chat-button]");
    if (button) {
      panelOpen = !panelOpen;
      panel();
      return;
    }
    const phrase = event.target.closest("[data-chat-phrase]");
    if (phrase && window.cubic) {
      window.cubic.send({ type: "chat", phrase: phrase.dataset.chatPhrase });
      panelOpen = false;
      panel();
    }
  });
  document.addEventListener("change", (event) => {
    const box = event.target;
    if (box.matches("[data-chat-off]")) localStorage.setItem(ALL_OFF, box.checked ? "1" : "0");
    else if (box.matches("[data-chat-mute]")) setMuted(box.dataset.chatMute, box.checked);
    else return;
    // Muted now: its bubble goes at once.
    const muted = mutedNames();
    const names = {};
    document.querySelectorAll("#room-main [data-chat-seat]").forEach((s) => { names[s.dataset.chatSeat] = s.dataset.chatName; });
    bubbles = bubbles.filter((b) => b.seat === mySeat() || (!allOff() && !muted.has(names[b.seat])));
    draw();
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && panelOpen) {
      panelOpen = false;
      panel();
      const button = document.querySelector("#room-main [data-chat-button]");
      if (button) button.focus();
    }
  });
  // Captured on the way down, so the panel is open again before table.js looks for the
  // control that had the keyboard's focus in the redrawn table.
  document.addEventListener("htmx:wsAfterMessage", () => {
    hear();
    draw();
    panel();
  }, true);
  document.addEventListener("DOMContentLoaded", panel);
})();
