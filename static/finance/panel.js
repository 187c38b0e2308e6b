// Finance panel: upload a filing (XHR, with its upload bar), then follow its ingestion through
// the workspace's document socket, falling back to polling the list endpoint every 0.5 s.
(function () {
  "use strict";
  var panel = document.getElementById("finance-panel");
  if (!panel) return;
  var csrf = panel.dataset.csrf;
  var input = document.getElementById("fin-file");
  var drop = document.getElementById("fin-drop");
  var bars = document.getElementById("fin-bars");
  var uploadBar = document.getElementById("fin-upload-bar");
  var ingestBar = document.getElementById("fin-ingest-bar");
  var ingestMessage = document.getElementById("fin-ingest-message");
  var uploadState = document.getElementById("fin-upload-state");
  var errorBox = document.getElementById("fin-upload-error");
  var list = document.getElementById("fin-documents");
  var watched = null; // id of the document just uploaded
  var socket = null;
  var polling = null;
  var known = {}; // id -> status, to refresh the list when one changes state
  var ended = {}; // id -> the event that ended its processing (it may beat the upload's answer)
  var listRequests = 0; // only the answer to the latest list request is shown

  function showError(text) {
    errorBox.textContent = text;
    errorBox.hidden = !text;
  }

  function refreshList() {
    var request = ++listRequests;
    return fetch(panel.dataset.fragmentUrl, {credentials: "same-origin"})
      .then(function (r) { return r.ok ? r.text() : Promise.reject(r.status); })
      .then(function (html) {
        if (request !== listRequests) return; // a later refresh is on its way
        list.innerHTML = html;
        remember();
        // The list may learn that the uploaded file is done before any event says so.
        if (watched && known[watched] && known[watched] !== "processing") {
          uploadState.textContent = known[watched];
          ingestMessage.textContent = "";
        }
      })
      .catch(function () {});
  }

  function remember() {
    known = {};
    list.querySelectorAll(".fin-doc").forEach(function (item) {
      known[item.dataset.document] = item.dataset.status;
    });
  }

  function anyProcessing() {
    return Object.keys(known).some(function (id) { return known[id] === "processing"; });
  }

  // One progress event (from the socket or a poll): move the bars; refresh on a state change.
  function apply(event) {
    var id = String(event.document);
    if (event.status !== "processing") ended[id] = event;
    var item = list.querySelector('.fin-doc[data-document="' + id + '"]');
    if (item) {
      var bar = item.querySelector(".fin-doc-progress");
      var message = item.querySelector(".fin-doc-message");
      if (bar) bar.value = event.progress;
      if (message) message.textContent = event.message;
    }
    if (watched === id) {
      ingestBar.value = event.progress;
      ingestMessage.textContent = event.status === "processing" ? "— " + event.message : "";
      uploadState.textContent = event.status === "processing" ? "processing…" : event.status;
      if (event.status === "failed") showError(event.message);
    }
    if (!item || known[id] !== event.status) refreshList();
  }

  function poll() {
    fetch(panel.dataset.listUrl, {credentials: "same-origin", headers: {Accept: "application/json"}})
      .then(function (r) { return r.ok ? r.json() : Promise.reject(r.status); })
      .then(function (documents) {
        documents.forEach(function (d) {
          apply({document: d.id, progress: d.progress, message: d.message, status: d.status});
        });
        if (!anyProcessing() && !documents.some(function (d) { return d.status === "processing"; })) stopPolling();
      })
      .catch(function () {});
  }

  function startPolling() {
    if (!polling) polling = setInterval(poll, 500);
  }

  function stopPolling() {
    if (polling) clearInterval(polling);
    polling = null;
  }

  function connect() {
    if (!window.WebSocket) { startPolling(); return; }
    var scheme = location.protocol === "https:" ? "wss://" : "ws://";
    try {
      socket = new WebSocket(scheme + location.host + panel.dataset.socketPath);
    } catch (e) {
      startPolling();
      return;
    }
    socket.onmessage = function (message) {
      var data = JSON.parse(message.data);
      if (data.type === "document.progress") apply(data);
      if (data.type === "error") socket.close();
    };
    socket.onclose = function () { socket = null; if (anyProcessing() || watched) startPolling(); };
  }

  function upload(file) {
    if (!file) return;
    showError("");
    bars.hidden = false;
    document.getElementById("fin-upload-name").textContent = file.name;
    uploadState.textContent = "uploading…";
    uploadBar.value = 0;
    ingestBar.value = 0;
    ingestMessage.textContent = "";
    var form = new FormData();
    form.append("file", file);
    var xhr = new XMLHttpRequest();
    xhr.open("POST", panel.dataset.uploadUrl);
    xhr.setRequestHeader("X-CSRFToken", csrf);
    xhr.setRequestHeader("Accept", "application/json");
    xhr.upload.onprogress = function (e) {
      if (e.lengthComputable) uploadBar.value = Math.round((100 * e.loaded) / e.total);
    };
    xhr.onload = function () {
      var body = {};
      try { body = JSON.parse(xhr.responseText); } catch (e) { body = {detail: "unexpected answer"}; }
      uploadBar.value = 100;
      if (xhr.status >= 400) {
        uploadState.textContent = "refused";
        showError(body.detail || "the upload was refused (" + xhr.status + ")");
        return;
      }
      watched = String(body.id);
      var end = ended[watched];
      apply({document: body.id, progress: body.progress, message: body.message, status: body.status});
      // Known bytes are ready in milliseconds: the socket may have said so before this answer.
      if (body.status === "processing" && end) apply(end);
      if (body.status === "processing" && !socket) startPolling();
    };
    xhr.onerror = function () { uploadState.textContent = "failed"; showError("the upload failed: network error"); };
    xhr.send(form);
  }

  input.addEventListener("change", function () { upload(input.files[0]); input.value = ""; });
  ["dragenter", "dragover"].forEach(function (name) {
    drop.addEventListener(name, function (e) { e.preventDefault(); drop.classList.add("over"); });
  });
  ["dragleave", "drop"].forEach(function (name) {
    drop.addEventListener(name, function () { drop.classList.remove("over"); });
  });
  drop.addEventListener("drop", function (e) {
    e.preventDefault();
    if (e.dataTransfer && e.dataTransfer.files.length) upload(e.dataTransfer.files[0]);
  });

  list.addEventListener("click", function (e) {
    var button = e.target.closest(".fin-delete");
    if (!button || !confirm("Delete this document?")) return;
    fetch(button.dataset.url, {method: "DELETE", credentials: "same-origin", headers: {"X-CSRFToken": csrf}})
      .then(function (r) { if (r.ok) refreshList(); else showError("could not delete (" + r.status + ")"); });
  });

  // A note written by a run on this page (the timeline announces it) joins the notes list.
  var notes = document.getElementById("fin-notes");
  document.addEventListener("finance:note", function (e) {
    var note = e.detail || {};
    if (!notes || !/^\d+$/.test(String(note.note)) || notes.querySelector('[data-note="' + note.note + '"]')) return;
    var empty = notes.querySelector(".muted:only-child");
    if (empty) empty.remove();
    var li = document.createElement("li");
    li.dataset.note = note.note;
    var link = document.createElement("a");
    link.href = "/finance/notes/" + note.note + "/";
    link.textContent = note.title || "Research note";
    li.appendChild(link);
    ["md", "pdf"].forEach(function (fmt) {
      var download = document.createElement("a");
      download.className = "fin-dl";
      download.href = "/api/v1/finance/notes/" + note.note + "." + fmt;
      download.textContent = fmt === "md" ? "Markdown" : "PDF";
      li.appendChild(document.createTextNode(" "));
      li.appendChild(download);
    });
    notes.insertBefore(li, notes.firstChild);
  });

  remember();
  connect();
  if (anyProcessing() && !socket) startPolling();
})();
