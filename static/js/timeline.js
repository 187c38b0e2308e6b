// Live step timeline of one run: replays the event log after the last seq it has, then streams.
// On a dropped connection it reconnects with that seq, so nothing is shown twice or skipped.
//
// The chat form is sent with fetch: the new run's panel (rendered by the server) takes the place
// of the one shown and streams in place, so the page (and the studio viewer on it) never reloads.
(function () {
  "use strict";
  const FOLLOW_SLACK = 48;  // px: the end of the timeline counts as in view this close to the edge
  const promptBox = document.getElementById("id_prompt");

  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  // The part of the window where `node` can be seen: the window cut by every box it scrolls in.
  function visibleBand(node) {
    let top = 0, bottom = window.innerHeight;
    for (let box = node.parentElement; box && box !== document.body; box = box.parentElement) {
      const overflow = getComputedStyle(box).overflowY;
      if (overflow !== "auto" && overflow !== "scroll") continue;
      const rect = box.getBoundingClientRect();
      top = Math.max(top, rect.top);
      bottom = Math.min(bottom, rect.bottom);
    }
    return { top: top, bottom: bottom };
  }

  // Follow one run's events into its panel (`root`, the #run element); stop() lets it go.
  function follow(root) {
    const runId = root.dataset.runId;
    const timeline = root.querySelector("#timeline");
    const statusBadge = root.querySelector("#run-status");
    const progress = root.querySelector("#run-progress");
    const connection = root.querySelector("#connection");
    const cancelButton = root.querySelector("#cancel-button");
    const cancelForm = root.querySelector("#cancel-form");
    const calls = new Map();
    let lastSeq = 0;
    let finished = false;
    let retry = 0;
    let socket = null;
    let reconnect = null;
    let answer = null;  // the final answer's text, once shown
    let stopped = false;

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

    // Whether the end of the timeline is in view, so that new events should keep it there. A
    // person who scrolled up to read, or is writing the next request, is not moved.
    function endInView() {
      if (document.activeElement === promptBox && promptBox.value.trim()) return false;
      return timeline.getBoundingClientRect().bottom <= visibleBand(timeline).bottom + FOLLOW_SLACK;
    }

    // The newest event (and, once the run has ended, the rating row) scrolled into view, in the
    // chat column and in the window; the final answer is then shown from its first line whenever
    // it and what follows do not fit together.
    function reveal() {
      const last = timeline.lastElementChild;
      if (!last) return;
      const feedback = finished ? root.querySelector(".run-feedback:not([hidden])") : null;
      (feedback || last).scrollIntoView({ block: "nearest" });
      const finals = finished ? timeline.querySelectorAll("li.final") : [];
      const final = finals[finals.length - 1];
      if (final && final.getBoundingClientRect().top < visibleBand(final).top) {
        final.scrollIntoView({ block: "start" });
      }
    }

    function handle(event) {
      if (stopped || event.seq <= lastSeq) return;  // never render an event twice
      lastSeq = event.seq;
      root.dataset.lastSeq = String(lastSeq);
      const following = endInView();
      const render = renderers[event.type];
      if (render) render(event); else item(event, "note").textContent = event.type;
      // Other widgets on the page (the studio viewer) follow the run through this DOM event.
      document.dispatchEvent(new CustomEvent("run-event", { detail: event }));
      if (following) reveal();
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
        reconnect = setTimeout(connect, 250 * Math.pow(2, retry - 1));
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
    return {
      stop: function () {
        stopped = finished = true;
        clearTimeout(reconnect);
        if (socket) socket.close(1000);
      },
    };
  }

  let current = null;  // the followed run

  // A new run's panel and run list, from the server, in place of the ones shown; then follow it.
  function showRun(data) {
    if (current) current.stop();
    document.getElementById("runs").innerHTML = data.runs_html;
    const slot = document.getElementById("run-slot");
    slot.innerHTML = data.run_html;
    const root = slot.querySelector("#run");
    history.pushState({ run: data.run }, "", data.url);
    document.dispatchEvent(new CustomEvent("run-shown", { detail: { root: root } }));
    current = follow(root);
    root.scrollIntoView({ block: "nearest" });
  }

  // The chat form, sent with fetch. What the server refuses (an empty or too long prompt, a
  // quota) is shown beside the form and the text stays; once sent, the text is cleared.
  function sendInPlace(form) {
    const button = form.querySelector("button[type=submit]");
    const errors = document.getElementById("ask-errors");
    let sending = false;

    function showErrors(byField) {
      const list = el("ul", "errorlist");
      for (const texts of Object.values(byField || {})) {
        for (const text of texts) list.appendChild(el("li", "", text));
      }
      errors.replaceChildren(...(list.children.length ? [list] : []));
      promptBox.setAttribute("aria-invalid", String(list.children.length > 0));
    }

    function refusal(response, data) {
      if (data && data.errors) return data.errors;
      if (response.redirected && /\/accounts\/login\//.test(response.url)) {
        return { __all__: ["Not sent: you are logged out. Log in again in another tab, then send it again."] };
      }
      return { __all__: ["Not sent (HTTP " + response.status + "); your text is kept: send it again."] };
    }

    form.addEventListener("submit", function (submit) {
      submit.preventDefault();
      if (sending) return;
      sending = true;
      button.disabled = true;
      showErrors(null);
      const token = form.querySelector("[name=csrfmiddlewaretoken]").value;
      fetch(form.action, {
        method: "POST",
        body: new FormData(form),
        credentials: "same-origin",
        headers: { Accept: "application/json", "X-CSRFToken": token },
      })
        .then(function (response) {
          return response.json()
            .catch(function () { return null; })
            .then(function (data) { return { response: response, data: data }; });
        })
        .then(function (reply) {
          if (reply.response.ok && reply.data && reply.data.run_html) {
            promptBox.value = "";
            showRun(reply.data);
          } else {
            showErrors(refusal(reply.response, reply.data));
          }
        })
        .catch(function (error) {
          showErrors({ __all__: ["Not sent (" + error.message + "); your text is kept: send it again."] });
        })
        .finally(function () {
          sending = false;
          button.disabled = false;
        });
    });
  }

  // Back and Forward between runs shown in place load the page of the run in the address.
  window.addEventListener("popstate", function () { location.reload(); });

  const form = document.getElementById("ask-form");
  if (form && promptBox) sendInPlace(form);
  const shown = document.getElementById("run");
  if (shown) current = follow(shown);
})();
