// The connection, marked and said (issue 40). While a page's socket is down its view may
// be stale: the page fades (data-socket, for the stylesheet), and its status region
// (base.html, there from the start, so that a screen reader hears it change) says so in
// the page's words, from its data- attributes: a script holds no text for people. Who
// is at the table is then unknown: the list is marked so until a push draws it again
// (the reconnect's snapshot is followed by one), and that drawing, which has no mark,
// takes the mark away. A page without the region (a stream's overlay) only fades.
const RETRIED = [1006, 1011, 1012, 1013]; // the closes the ws extension reconnects after
let [down, leaving, settle] = [false, false, null];
addEventListener("pagehide", () => (leaving = true)); // a page left closes its socket
addEventListener("pageshow", () => (leaving = false));

// One line of the region: the words its data- attribute `words` names, or none.
function say(id, words) {
  const line = document.getElementById(id);
  const text = words ? line && line.dataset[words] : "";
  // Each failed retry closes again: words already said are not said again.
  if (!line || line.textContent === text) return;
  line.textContent = text;
  line.dataset.said = words || "";
}

document.addEventListener("htmx:wsOpen", () => {
  document.body.dataset.socket = "open";
  if (!down) return; // the first connection: nothing to tell
  down = false;
  say("socket-status", "back");
  clearTimeout(settle);
  settle = setTimeout(() => say("socket-status", null), 5000);
});
document.addEventListener("htmx:wsClose", (event) => {
  document.body.dataset.socket = "closed";
  down = true;
  if (leaving) return;
  clearTimeout(settle);
  say("socket-status", RETRIED.includes(event.detail.event.code) ? "lost" : "closed");
  document.getElementById("presence")?.setAttribute("data-unknown", "");
});

// A change that did not reach the server, or that it failed to make, is said in words,
// never lost in silence: refused, not kept to send later, for a tap sent once the table
// is back could land on a roll that has moved on; the person taps again (what they
// typed stays, table.js). Changes only: every GET is a pushed signal's fetch, which the
// reconnect's snapshot makes again.
const isChange = (event) => event.detail.requestConfig.verb !== "get";
document.addEventListener("htmx:beforeRequest", (event) => isChange(event) && say("request-status", null));
document.addEventListener("htmx:sendError", (event) => isChange(event) && say("request-status", "unsent"));
document.addEventListener("htmx:responseError", (event) => isChange(event) && say("request-status", "failed"));
