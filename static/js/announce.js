// A finished roll is told to screen readers once: who rolled, what, and the result. Pages
// draw their rolls again and again (a pushed line, a reconnect's catch-up, the shared
// screen's whole body on every change), so a live region around the drawing would repeat
// itself. Instead every drawn roll carries its log line's id and its sentence; a line
// this page has not seen before is said in one polite region of its own, and the lines
// already on the page when it loads are not said at all. The region is made only on a
// page that shows rolls (it marks where with data-announce-rolls, which names the region).
(function () {
  var KEEP = 5; // sentences left in the region, for a reader who goes back to it
  var said = new Set();
  var region = null;
  var queued = false;

  function drawn() {
    return document.querySelectorAll("[data-roll][data-announce]");
  }

  function sayNew() {
    queued = false;
    var fresh = [];
    drawn().forEach(function (el) {
      if (said.has(el.dataset.roll)) return;
      said.add(el.dataset.roll);
      fresh.push(el);
    });
    // Oldest first, when one redraw brings several.
    fresh.sort(function (a, b) {
      return Number(a.dataset.roll) - Number(b.dataset.roll);
    });
    fresh.forEach(function (el) {
      var line = document.createElement("p");
      line.textContent = el.dataset.announce;
      region.appendChild(line);
      document.dispatchEvent(new CustomEvent("rolls:announced", { detail: { roll: el } }));
    });
    while (region.children.length > KEEP) region.removeChild(region.firstChild);
  }

  document.addEventListener("DOMContentLoaded", function () {
    var shows = document.querySelector("[data-announce-rolls]");
    if (!shows) return;
    drawn().forEach(function (el) {
      said.add(el.dataset.roll);
    });
    region = document.createElement("div");
    region.id = "roll-announcer";
    region.className = "visually-hidden";
    region.setAttribute("role", "log");
    region.setAttribute("aria-label", shows.dataset.announceRolls); // in the reader's language
    document.body.appendChild(region);
    // After whatever redrew the page (htmx, a pushed frame, a morph): once per task.
    new MutationObserver(function () {
      if (queued) return;
      queued = true;
      queueMicrotask(sayNew);
    }).observe(document.body, { childList: true, subtree: true });
  });
})();
