// Two page controls that need a few lines of script and nothing of htmx or the socket
// (the live table's redraws are table.js).

// A Copy button beside a read-only link (the invite, the shared screen): it copies the
// field named by data-copy and says so in its own label for a moment, in the page's words
// (data-copied: a script holds no text for people, the catalog does). Without a secure
// context (plain HTTP on a home network) there is no clipboard API, only the old command.
document.addEventListener("click", async (event) => {
  const button = event.target.closest("button[data-copy]");
  const field = button && document.getElementById(button.dataset.copy);
  if (!field) return;
  field.select();
  try {
    await navigator.clipboard.writeText(field.value);
  } catch {
    if (!document.execCommand("copy")) return;
  }
  if (button.dataset.copiedAt) return;
  const label = button.firstChild.textContent;
  button.dataset.copiedAt = "true";
  button.firstChild.textContent = button.dataset.copied;
  setTimeout(() => {
    button.firstChild.textContent = label;
    delete button.dataset.copiedAt;
  }, 2000);
});

// The wizard's "dots left" counts down as action dots are chosen (the budget comes from
// the page, which has it from the rules); the server counts again when the step is posted.
document.addEventListener("change", (event) => {
  const form = event.target.form;
  if (!form || !form.dataset.dotsBudget || !event.target.matches("input[data-dots]")) return;
  const chosen = Array.from(form.querySelectorAll("input[data-dots]:checked"));
  const left = Number(form.dataset.dotsBudget) - chosen.reduce((n, el) => n + Number(el.value), 0);
  const count = Math.abs(left);
  // The page gives the words in its language, "{n}" for the count (one and more).
  const output = form.querySelector("#dots-left");
  const words = output.dataset[(left < 0 ? "over" : "left") + (count === 1 ? "One" : "More")];
  output.textContent = words.replace("{n}", count);
});
