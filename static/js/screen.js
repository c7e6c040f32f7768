// The shared screen and its overlays (templates/crews/screen.html, overlay.html).

// An overlay is sized by its address (?width=…&scale=…, read and bounded by the server
// into data attributes): set here as custom properties, since the Content-Security-Policy
// allows no inline style.
document.addEventListener("DOMContentLoaded", function () {
  var size = document.body.dataset;
  var root = document.documentElement.style;
  if (size.width) root.setProperty("--overlay-width", size.width + "px");
  if (size.scale) root.setProperty("--overlay-scale", size.scale);
});

// The dice sound: off until someone in the room turns it on (a page may not play sound
// unasked, and a TV that suddenly rattles surprises everyone). The choice is kept for
// this browser.
(function () {
  var KEY = "screen-dice-sound";
  var audio = null;

  function toggle() {
    return document.querySelector("button.sound-toggle");
  }

  function show(on) {
    var button = toggle();
    if (button) button.setAttribute("aria-pressed", on ? "true" : "false");
  }

  document.addEventListener("DOMContentLoaded", function () {
    show(localStorage.getItem(KEY) === "on");
  });

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("button.sound-toggle");
    if (!button) return;
    var on = button.getAttribute("aria-pressed") !== "true";
    localStorage.setItem(KEY, on ? "on" : "off");
    show(on);
  });

  // Once per roll, as it is announced (static/js/announce.js).
  document.addEventListener("rolls:announced", function () {
    var button = toggle();
    if (!button || button.getAttribute("aria-pressed") !== "true") return;
    if (!audio) audio = new Audio(button.dataset.sound);
    audio.currentTime = 0;
    audio.play().catch(function () {
      // The browser wants a tap first: the next roll after one will sound.
    });
  });
})();

// A revoked link's body answers 404 with the message in place of the body: shown, like a
// refused form's 422 (table.js). It comes so when a signal's fetch crosses the revoking.
document.addEventListener("DOMContentLoaded", function () {
  if (window.htmx) {
    htmx.config.responseHandling = [{ code: "404", swap: true }].concat(
      htmx.config.responseHandling
    );
  }
});

// A link revoked while this screen was offline: its socket is then refused without a
// word, so on losing its socket a page of the link asks for its body once, and a revoked
// link answers with the message.
document.addEventListener("htmx:wsClose", function (event) {
  var source = event.target.getAttribute && event.target.getAttribute("ws-connect");
  var body = document.getElementById("screen-body");
  if (!source || source.indexOf("/ws/screen/") !== 0 || !body) return;
  if (body.classList.contains("screen-revoked")) return;
  htmx.ajax("GET", location.href, { target: "#screen-body", swap: "outerHTML" });
});
