// Thumbs up or down (with an optional comment) on a finished run, and its trajectory download.
// Shown once the run has finished: at once for a finished run, or when the timeline sees it end.
// A run started from the chat form brings its own panel ("run-shown"), which gets the same.
(function () {
  "use strict";
  const tokenInput = document.querySelector("[name=csrfmiddlewaretoken]");

  function attach(box) {
    const url = box.dataset.feedbackUrl;
    const thumbs = box.querySelectorAll(".thumb");
    const comment = box.querySelector("#feedback-comment");
    const state = box.querySelector("#feedback-state");
    let rating = null;

    function show(data) {
      rating = data.rating;
      box.dataset.rating = rating === null ? "" : String(rating);
      for (const thumb of thumbs) {
        thumb.setAttribute("aria-pressed", String(Number(thumb.dataset.rating) === rating));
      }
      if (data.comment !== undefined && document.activeElement !== comment) comment.value = data.comment;
    }

    function load() {
      fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } })
        .then(function (response) { return response.ok ? response.json() : null; })
        .then(function (data) { if (data) show(data); })
        .catch(function () { state.textContent = "could not load your rating"; });
    }

    function send(value) {
      state.textContent = "saving…";
      fetch(url, {
        method: "POST",
        credentials: "same-origin",
        headers: { "Content-Type": "application/json", "X-CSRFToken": tokenInput ? tokenInput.value : "" },
        body: JSON.stringify({ rating: value, comment: comment.value }),
      })
        .then(function (response) {
          return response.json().then(function (data) {
            if (!response.ok) throw new Error(data.detail || data.rating || "HTTP " + response.status);
            return data;
          });
        })
        .then(function (data) { show(data); state.textContent = "saved"; })
        .catch(function (error) { state.textContent = "not saved: " + error.message; });
    }

    for (const thumb of thumbs) {
      thumb.addEventListener("click", function () { send(Number(thumb.dataset.rating)); });
    }
    comment.addEventListener("keydown", function (key) {
      if (key.key !== "Enter") return;
      key.preventDefault();
      if (rating === null) state.textContent = "choose thumbs up or down to send the comment";
      else send(rating);
    });

    function onRunEvent(event) {
      if (!box.isConnected) {  // another run's panel took this one's place
        document.removeEventListener("run-event", onRunEvent);
        return;
      }
      const type = event.detail.type;
      if ((type === "run.finished" || type === "run.failed") && box.hidden) {
        box.hidden = false;
        load();
      }
    }
    document.addEventListener("run-event", onRunEvent);
    if (!box.hidden) load();
  }

  const box = document.getElementById("run-feedback");
  if (box) attach(box);
  document.addEventListener("run-shown", function (event) {
    const next = event.detail.root.querySelector(".run-feedback");
    if (next) attach(next);
  });
})();
