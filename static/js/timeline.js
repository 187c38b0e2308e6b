// Live step timeline of one run: replays the event log after the last seq it has, then streams.
// On a dropped connection it reconnects with that seq, so nothing is shown twice or skipped.
(function () {
  "use strict";
  const root = document.getElementById("run");
  if (!root) return;
  const runId = root.dataset.runId;
  const timeline = document.getElementById("timeline");
  const statusBadge = document.getElementById("run-status");
  const progress = document.getElementById("run-progress");
  const connection = document.getElementById("connection");
  const cancelButton = document.getElementById("cancel-button");
  const cancelForm = document.getElementById("cancel-form");
  const calls = new Map();
  let lastSeq = 0;
  let finished = false;
  let retry = 0;
  let socket = null;
  let answer = null;  // the final answer's text, once shown

  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function item(event, className) {
    const li = el("li", "event " + className);
    li.dataset.seq = event.seq;
    li.dataset.type = event.type;
    timeline.appendChild(li);
    return li;
  }

  function pretty(value) {
    if (typeof value === "string") {
      try { return JSON.stringify(JSON.parse(value), null, 2); } catch (e) { return value; }
    }
    return JSON.stringify(value, null, 2);
  }

  const sidebarBadge = document.querySelector(".run-list li.current .status");

  function setStatus(status) {
    for (const badge of [statusBadge, sidebarBadge]) {
      if (!badge) continue;
      badge.textContent = status;
      badge.className = "status status-" + status;
    }
    root.dataset.status = status;
  }

  const renderers = {
    // Live events of a step whose worker was lost: the step ran again, so they go.
    "events.superseded": function (event) {
      const from = Number(event.payload.from), to = Number(event.payload.to);
      timeline.querySelectorAll("li.event").forEach(function (li) {
        const seq = Number(li.dataset.seq);
        if (seq >= from && seq <= to) li.remove();
      });
    },
    "run.started": function (event) {
      setStatus("running");
      item(event, "status-line").textContent = "Started with the " + event.payload.policy + " planner";
    },
    "model.message": function (event) {
      const last = timeline.lastElementChild;
      if (last && last.dataset.type === "model.delta") last.remove();  // the whole text replaces it
      const li = item(event, "message" + (event.payload.final ? " final" : ""));
      if (event.payload.final) answer = event.payload.text || "";
      li.appendChild(el("span", "who", "Agent"));
      if (event.payload.text) li.appendChild(el("p", "text", event.payload.text));
      const m = event.payload.metrics;
      if (m) {
        const parts = ["TTFT " + m.ttft_ms + " ms", m.tokens_per_s + " tok/s",
          (m.prompt_tokens || 0) + " prompt / " + m.completion_tokens + " completion tokens"];
        if (m.cached_tokens !== undefined) parts.push(m.cached_tokens + " cached");
        if (m.retries) parts.push(m.retries + " retries");
        li.appendChild(el("span", "metrics", parts.join(" · ")));
      }
    },
    "model.delta": function (event) {
      let last = timeline.lastElementChild;
      if (!last || last.dataset.type !== "model.delta") {
        last = item(event, "message streaming");
        last.appendChild(el("span", "who", "Agent"));
        last.appendChild(el("p", "text", ""));
      }
      last.querySelector(".text").textContent += event.payload.text;
    },
    "tool.call": function (event) {
      const li = item(event, "tool");
      const details = el("details");
      const summary = el("summary");
      summary.appendChild(el("span", "tool-name", event.payload.name));
      summary.appendChild(el("span", "tool-state pending", "running"));
      details.appendChild(summary);
      details.appendChild(el("h4", "", "Arguments"));
      details.appendChild(el("pre", "args", pretty(event.payload.arguments)));
      li.appendChild(details);
      calls.set(event.payload.id, li);
    },
    "tool.result": function (event) {
      let li = calls.get(event.payload.id);
      if (!li) li = item(event, "tool");
      const details = li.querySelector("details") || li.appendChild(el("details"));
      const state = li.querySelector(".tool-state");
      if (state) {
        state.textContent = event.payload.ok ? "ok · " + event.payload.duration_ms + " ms" : "error";
        state.className = "tool-state " + (event.payload.ok ? "ok" : "error");
      }
      details.appendChild(el("h4", "", "Result" + (event.payload.truncated ? " (beginning)" : "")));
      details.appendChild(el("pre", "result", pretty(event.payload.content)));
      li.dataset.resultSeq = event.seq;
    },
    "observation.compressed": function (event) {
      item(event, "note").textContent = "Compressed a " + event.payload.original_chars +
        "-character result of " + event.payload.tool + " into artifact " + event.payload.artifact;
    },
    "context.condensed": function (event) {
      const p = event.payload;
      const steps = p.steps_condensed ? "steps " + p.first_step + "\u2013" + p.last_step : "earlier turns";
      item(event, "note").textContent = "Condensed " + steps + " (" + p.messages_condensed +
        " messages, " + p.tokens_before + " \u2192 " + p.tokens_after +
        " tokens) into a summary; transcript in artifact " + p.artifact;
    },
    "artifact.created": function (event) {
      item(event, "note").textContent = "Artifact " + event.payload.name + " (" + event.payload.size + " bytes)";
    },
    "round.completed": function (event) {
      item(event, "note").textContent = "Round " + (event.payload.round || "") + " completed";
    },
    "note.created": function (event) {
      const li = item(event, "note research-note");
      li.appendChild(document.createTextNode("Research note: "));
      const link = el("a", "", event.payload.title || "open the note");
      // Only in-app paths: the URL comes from the server, but a link must never leave the site.
      if (/^\/finance\/notes\/\d+\/$/.test(event.payload.url || "")) link.href = event.payload.url;
      li.appendChild(link);
      document.dispatchEvent(new CustomEvent("finance:note", {detail: event.payload}));
    },
    "run.status": function (event) {
      if (typeof event.payload.progress === "number") {
        progress.hidden = false;
        progress.value = event.payload.progress;
      }
      const last = timeline.lastElementChild;
      if (last && last.dataset.type === "model.delta" && /retrying/.test(event.payload.message || "")) {
        last.classList.add("interrupted");  // that partial answer will be asked for again
        last.dataset.type = "model.delta.interrupted";
      }
      if (event.payload.message) item(event, "status-line").textContent = event.payload.message;
    },
    "run.finished": function (event) { end(event, event.payload.status); },
    "run.failed": function (event) { end(event, "failed"); },
  };

  function end(event, status) {
    finished = true;
    setStatus(status);
    progress.hidden = true;
    cancelButton.disabled = true;
    cancelForm.hidden = true;  // a finished run has nothing to cancel
    const li = item(event, "end end-" + status);
    li.textContent = endText(status, event.payload);
    connection.textContent = "run " + status;
    if (socket) socket.close(1000);
  }

  // "Finished", or the status and why. When the message is the final answer just shown, it is not
  // repeated: the reason code reads in its place ("failed (checks failed)").
  function endText(status, payload) {
    if (status === "succeeded") return "Finished";
    const message = (payload.message || "").trim();
    const reason = String(payload.reason || "").replace(/_/g, " ").trim();
    if (!message || (answer !== null && message === answer.trim())) {
      return reason ? status + " (" + reason + ")" : status;
    }
    return status + ": " + message;
  }

  function handle(event) {
    if (event.seq <= lastSeq) return;  // never render an event twice
    lastSeq = event.seq;
    root.dataset.lastSeq = String(lastSeq);
    const render = renderers[event.type];
    if (render) render(event); else item(event, "note").textContent = event.type;
    // Other widgets on the page (the studio viewer) follow the run through this DOM event.
    document.dispatchEvent(new CustomEvent("run-event", { detail: event }));
  }

  function connect() {
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    socket = new WebSocket(scheme + location.host + "/ws/runs/" + runId + "/?after=" + lastSeq);
    socket.onopen = function () { retry = 0; connection.textContent = "live"; };
    socket.onmessage = function (message) {
      const data = JSON.parse(message.data);
      if (data.type === "event") handle(data.event);
      else if (data.type === "error") connection.textContent = "error: " + data.error;
    };
    socket.onclose = function () {
      if (finished) return;
      retry = Math.min(retry + 1, 6);
      connection.textContent = "connection lost; reconnecting…";
      setTimeout(connect, 250 * Math.pow(2, retry - 1));
    };
  }

  cancelForm.addEventListener("submit", function (submit) {
    submit.preventDefault();
    cancelButton.disabled = true;
    const token = cancelForm.querySelector("[name=csrfmiddlewaretoken]").value;
    fetch(root.dataset.cancelUrl, { method: "POST", headers: { "X-CSRFToken": token }, credentials: "same-origin" })
      .then(function (response) {
        if (!response.ok) throw new Error("HTTP " + response.status);
        connection.textContent = "cancel requested";
      })
      .catch(function (error) { cancelButton.disabled = false; connection.textContent = "cancel failed: " + error.message; });
  });

  connect();
})();
