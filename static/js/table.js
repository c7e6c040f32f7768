// Reconnect quickly after a dropped socket (a server restart, a phone waking up):
// 0.5 s, 1 s, 2 s ... capped at 8 s, with jitter so a restarted server is not stampeded.
htmx.config.wsReconnectDelay = (retryCount) => {
  const delay = Math.min(500 * 2 ** retryCount, 8000);
  return delay / 2 + (Math.random() * delay) / 2;
};

// A refused form comes back as 422 with its errors: swap it in like a success.
htmx.config.responseHandling.unshift({ code: "422", swap: true });

// The morph swap. idiomorph's own htmx extension (in its npm package, since moved to
// htmx-extensions) claims every other swap style as inline too, and so put the wrapper
// of an appending push (afterbegin:#roll-log) into the list (idiomorph#148).
htmx.defineExtension("morph", {
  isInlineSwap: (style) => style === "morph",
  handleSwap: (style, target, fragment) =>
    style === "morph" && Idiomorph.morph(target, fragment.children),
});

// Panels morph: their controls stay the same elements, so the focus, the caret and a
// pressed button survive a redraw. A morph would still write the server's value over a
// field someone changed and has not sent, and fold a <details> they opened: those stay
// as the person left them. A form's values become its defaults when it is sent, so its
// answer refills it, keeping only what was typed since (the next clock's name, while
// the last one is on its way); one that never went gets back the defaults it had.
const sending = new Set(); // forms whose answers are on their way
const keep = new WeakSet(); // fields whose unsent change the morph under way keeps

// (Hidden fields and buttons have their value in its attribute, so never differ from it.)
function changed(field) {
  if (field.type === "checkbox" || field.type === "radio") return field.checked !== field.defaultChecked;
  if (field.tagName !== "SELECT") return "defaultValue" in field && field.value !== field.defaultValue;
  return Array.from(field.options).some((option) => option.selected !== option.defaultSelected);
}

// Decided as a field's morph begins: half-way, its value no longer matches its default.
Idiomorph.defaults.callbacks.beforeNodeMorphed = (el) => {
  if (changed(el)) keep.add(el);
  else keep.delete(el);
};
Idiomorph.defaults.callbacks.beforeAttributeUpdated = (name, el, kind) => {
  if (name === "open" && el.tagName === "DETAILS") {
    // Unless it holds the form just sent: then the answer decides (a done form folds).
    return kind !== "remove" || Array.from(sending).some((form) => el.contains(form));
  }
  // A container given focus (below) keeps the tabindex that lets it hold it.
  if (name === "tabindex" && el === document.activeElement) return false;
  if (name === "value" || name === "checked" || name === "selected") {
    return !keep.has(el.tagName === "OPTION" ? el.closest("select") : el);
  }
};

document.addEventListener("htmx:beforeRequest", (event) => {
  const [form, xhr] = [event.detail.elt.closest("form"), event.detail.xhr];
  if (!form) return;
  const fields = Array.from(form.querySelectorAll("input:not([type=file]), textarea"));
  const options = Array.from(form.querySelectorAll("option"));
  const had = [fields.map((f) => [f.defaultValue, f.defaultChecked]), options.map((o) => o.defaultSelected)];
  sending.add(form);
  xhr.addEventListener("loadend", () => {
    sending.delete(form);
    // Not sent, or not made and no form to show (not a 422): what was typed is unsent.
    if (xhr.status !== 0 && (xhr.status < 400 || xhr.status === 422)) return;
    fields.forEach((field, i) => ([field.defaultValue, field.defaultChecked] = had[0][i]));
    options.forEach((option, i) => (option.defaultSelected = had[1][i]));
  });
  for (const field of fields) [field.defaultValue, field.defaultChecked] = [field.value, field.checked];
  for (const option of options) option.defaultSelected = option.selected;
});

// A morph may take the focused control away (the Assist button, once assisted) or turn
// it into another one (a step's button into the next step's): focus then goes to its
// nearest surviving container rather than to <body> or to a control not chosen, so Tab
// goes on from there. (One that idiomorph only moves keeps it: it moves with moveBefore.)
const identity = (el) =>
  el.id || [el.tagName, el.name, el.ariaLabel, el.matches("button, a") && el.textContent].join();
let focused = null;

function notePlace(event) {
  const active = document.activeElement;
  if (!event.detail.target || !event.detail.target.contains(active)) return;
  focused = { el: active, as: identity(active), places: [], target: event.detail.target };
  for (let node = active.parentElement; node; node = node.parentElement) {
    if (node.id) focused.places.push(node.id);
  }
}
function restorePlace(event) {
  const [was, active] = [focused, document.activeElement];
  if (!was || event.detail.target !== was.target) return; // an answer's pushes swap first
  focused = null;
  // Focus still where it was, or moved on purpose.
  if (active === was.el ? identity(active) === was.as : active !== document.body) return;
  // The first that can take it: one folded away in a closed <details> cannot.
  for (const place of was.places.map((id) => document.getElementById(id)).filter(Boolean)) {
    place.focus({ preventScroll: true });
    if (document.activeElement !== place) {
      place.setAttribute("tabindex", "-1"); // a container takes focus only from script
      place.focus({ preventScroll: true });
    }
    if (document.activeElement === place) return;
  }
}
document.addEventListener("htmx:beforeSwap", notePlace);
document.addEventListener("htmx:oobBeforeSwap", notePlace);
document.addEventListener("htmx:afterSwap", restorePlace);
document.addEventListener("htmx:oobAfterSwap", restorePlace);

// A sheet's or a panel's revision orders what reaches it. A pushed signal fetches it
// only when this page's copy is behind (the sender already holds its own answer), and
// an answer older than what the page shows is dropped: answers cross on the way home
// when the GM taps a coin as Ada marks stress. Decided here rather than in an hx-trigger
// filter: filters are evaluated code, which the Content-Security-Policy does not allow.
const revisionOf = (el) => (el && el.dataset.revision ? Number(el.dataset.revision) : null);

document.addEventListener("htmx:confirm", (event) => {
  const target = event.detail.elt.dataset.sheet || event.detail.elt.dataset.panel;
  const shown = target && revisionOf(document.getElementById(target));
  if (target && (shown === null || shown >= revisionOf(event.detail.elt))) event.preventDefault();
});
document.addEventListener("htmx:beforeSwap", (event) => {
  const detail = event.detail;
  const shown = revisionOf(detail.target);
  const got = /data-revision="(\d+)"/.exec(detail.serverResponse); // the panel's own comes first
  if (shown !== null && got && detail.xhr.status < 400 && Number(got[1]) < shown) {
    detail.shouldSwap = false;
  }
});

// A form whose result arrives over the socket answers 204: clear what was sent (the
// note), keep the choices (kind, dice) for the next roll.
document.addEventListener("htmx:afterRequest", (event) => {
  const form = event.detail.elt;
  if (event.detail.xhr.status !== 204 || !form.dataset.clearOnSuccess) return;
  for (const name of form.dataset.clearOnSuccess.split(" ")) {
    if (form.elements[name]) form.elements[name].value = "";
  }
});

// A push goes to every open page of the table, and each page holds only some of the
// fragments (the phase page has no clocks, the table page no phase panel). Those with no
// place here are dropped before htmx looks for their targets: it would swap nothing, but
// report each one as a console error. The body names this extension (hx-ext), so every
// page's socket passes its messages through it.
htmx.defineExtension("push-present", {
  transformResponse(text, xhr) {
    if (xhr) return text; // an HTTP answer goes where its request said
    const template = document.createElement("template");
    template.innerHTML = text;
    for (const el of Array.from(template.content.children)) {
      const [, selector] = (el.getAttribute("hx-swap-oob") || "").split(/:(.*)/);
      if (!document.querySelector(selector || "#" + CSS.escape(el.id))) el.remove();
    }
    return template.innerHTML;
  },
});

// A click is a press and a release on the same element. A push that redraws a panel in
// between could take the pressed button away, and the click would never happen. So
// while a pointer (or Space, which clicks on keyup) is down, pushed frames wait; they go
// in, in order, once it is up and the click has run, or after 1.5 s if it stays down, so
// that a resting finger never freezes the page.
const sockets = new WeakMap(); // page element → its open WebSocket
let [held, pressed, holdTimer] = [[], false, null];

document.addEventListener("htmx:wsOpen", (event) => {
  sockets.set(event.target, event.detail.event.target);
});
document.addEventListener("htmx:wsBeforeMessage", (event) => {
  // Once one frame waits, the next ones wait behind it, or they would overtake it.
  const socket = sockets.get(event.target);
  if (!socket || (!pressed && !held.length)) return;
  event.preventDefault();
  held.push({ socket, data: event.detail.message });
});

function release() {
  const waiting = held;
  [held, pressed] = [[], false];
  clearTimeout(holdTimer);
  // Through the socket's own listener, so each frame is swapped as if it came now.
  for (const { socket, data } of waiting) socket.dispatchEvent(new MessageEvent("message", { data }));
}
function press() {
  pressed = true;
  clearTimeout(holdTimer);
  holdTimer = setTimeout(release, 1500);
}
function releaseAfterClick() {
  if (pressed) setTimeout(release, 0); // the click comes after the release: let it run
}
const SPACE_CLICKS = "button, summary, input[type=checkbox], input[type=radio], input[type=submit]";
const onEvery = (name, listener) => document.addEventListener(name, listener, true);
onEvery("pointerdown", (event) => event.button === 0 && press());
onEvery("pointerup", releaseAfterClick);
onEvery("pointercancel", releaseAfterClick);
onEvery("keydown", (event) => {
  if (event.key === " " && !event.repeat && event.target.matches(SPACE_CLICKS)) press();
});
onEvery("keyup", (event) => event.key === " " && releaseAfterClick());
