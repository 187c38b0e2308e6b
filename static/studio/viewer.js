// Studio viewer: a studio workspace's scene in three.js, live with the agent's rounds.
//
// It shows the current revision (the GLB export of the studio API) on load, then follows the
// run timeline's "run-event" DOM events: a `round.completed` with a newer revision loads it. When
// the new GLB has the same objects and lights (by name), their transforms, materials, geometry and
// light settings are copied onto the scene graph already shown, so the view does not flicker and
// the camera stays where the person left it; otherwise the content is replaced.
//
// Objects can be selected and edited by hand (editor.js); each edit is a new revision.
//
// For tests: window.studioViewer = {revision, objectNames(), objects(), frames, lastUpdate,
// selected, select(name), screenPosition(name)}. objects() is a read-only snapshot of what is drawn:
// each object's name, colour (linear RGB and sRGB hex) and world-space size and centre, in metres.
import * as THREE from "three";
import { OrbitControls } from "three/addons/controls/OrbitControls.js";
import { GLTFLoader } from "three/addons/loaders/GLTFLoader.js";
import { RoomEnvironment } from "three/addons/environments/RoomEnvironment.js";
import { Editor } from "./editor.js";

const FILL_INTENSITY = 0.3;   // a hemisphere fill, so a scene without lights is never black
const ENVIRONMENT_INTENSITY = 0.3;   // room reflections, so metals read as metal, glass as glass
const DIFF_DECIMALS = 3;  // millimetres, and colours to three places, in the compare list

class ApiError extends Error {
  constructor(message, status) {
    super(message);
    this.status = status;
  }
}

function messageOf(body) {
  if (!body || typeof body !== "object") return "";
  if (typeof body.detail === "string") return body.detail;
  return Object.entries(body)
    .map(([key, value]) => key + ": " + (Array.isArray(value) ? value.join(" ") : value))
    .join("; ");
}

async function request(url, options = {}) {
  const response = await fetch(url, { credentials: "same-origin", ...options });
  if (!response.ok) {
    let body = null;
    try { body = await response.json(); } catch (error) { body = null; }
    throw new ApiError(messageOf(body) || "HTTP " + response.status, response.status);
  }
  return response;
}

async function getJSON(url) {
  return (await request(url, { headers: { Accept: "application/json" } })).json();
}

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

// Image-based light: three.js's room (a lit box with soft panels), prefiltered for PBR.
function roomEnvironment(renderer) {
  const pmrem = new THREE.PMREMGenerator(renderer);
  const room = new RoomEnvironment();
  const target = pmrem.fromScene(room, 0.04);
  pmrem.dispose();
  room.dispose();
  return target.texture;
}

// Glass (KHR_materials_transmission): the transmission shows what is behind, so the material is
// drawn opaque rather than alpha-blended on top of it.
function useTransmission(material) {
  if (!material.transmission) return;
  material.transparent = false;
  material.opacity = 1;
  material.depthWrite = true;
  material.thickness = material.thickness || 0.02;
}

// Objects of a loaded GLB by kind and original (unsanitised) glTF node name.
function nodesByName(root) {
  const found = new Map();
  root.traverse(function (node) {
    const name = node.userData && node.userData.name;
    if (!name) return;
    const kind = node.isMesh ? "mesh" : node.isLight ? "light" : node.isCamera ? "camera" : "node";
    found.set(kind + ":" + name, node);
  });
  return found;
}

function sameKeys(a, b) {
  if (a.size !== b.size) return false;
  for (const key of a.keys()) if (!b.has(key)) return false;
  return true;
}

function sameArray(a, b) {
  if (a === b) return true;
  if (!a || !b || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function sameGeometry(a, b) {
  const pa = a.attributes.position, pb = b.attributes.position;
  return sameArray(pa && pa.array, pb && pb.array) &&
    sameArray(a.index && a.index.array, b.index && b.index.array);
}

function copyMaterial(target, source) {
  target.name = source.name;
  if ("transmission" in source) target.transmission = source.transmission;
  target.color.copy(source.color);
  target.emissive.copy(source.emissive);
  target.metalness = source.metalness;
  target.roughness = source.roughness;
  target.opacity = source.opacity;
  target.depthWrite = source.depthWrite;
  if (target.transparent !== source.transparent) {
    target.transparent = source.transparent;
    target.needsUpdate = true;  // blending changes the shader program
  }
}

function copyLight(target, source) {
  target.color.copy(source.color);
  target.intensity = source.intensity;
  for (const key of ["distance", "decay", "angle", "penumbra"]) {
    if (key in source) target[key] = source[key];
  }
}

function dispose(root) {
  root.traverse(function (node) {
    if (node.geometry) node.geometry.dispose();
    if (node.material) node.material.dispose();
    if (node.shadow && node.shadow.map) node.shadow.map.dispose();
  });
}

class View {
  constructor(canvas) {
    this.canvas = canvas;
    this.renderer = new THREE.WebGLRenderer({ canvas, antialias: true, preserveDrawingBuffer: true });
    this.renderer.setPixelRatio(Math.min(window.devicePixelRatio || 1, 2));
    this.renderer.shadowMap.enabled = true;
    this.renderer.shadowMap.type = THREE.PCFShadowMap;
    this.renderer.toneMapping = THREE.NeutralToneMapping;
    this.scene = new THREE.Scene();
    this.scene.background = new THREE.Color(0x0d0d0f);
    this.scene.environment = roomEnvironment(this.renderer);
    this.scene.environmentIntensity = ENVIRONMENT_INTENSITY;
    this.scene.add(new THREE.HemisphereLight(0xe8eeff, 0x3a3028, FILL_INTENSITY));
    this.camera = new THREE.PerspectiveCamera(50, 4 / 3, 0.05, 2000);
    this.camera.position.set(3, 2, 3);
    this.controls = new OrbitControls(this.camera, canvas);
    this.controls.enableDamping = true;
    this.controls.target.set(0, 0.5, 0);
    this.controls.addEventListener("start", () => { this.userMoved = true; });
    this.controls.addEventListener("change", () => { this.dirty = true; });
    this.content = null;
    this.userMoved = false;
    this.frames = 0;
    this.dirty = true;
    new ResizeObserver(() => this.resize()).observe(canvas);
    this.resize();
  }

  resize() {
    const width = this.canvas.clientWidth, height = this.canvas.clientHeight;
    if (!width || !height) return;
    this.renderer.setSize(width, height, false);
    this.camera.aspect = width / height;
    this.camera.updateProjectionMatrix();
    this.dirty = true;
  }

  tick() {
    const moved = this.controls.update();
    if (moved || this.dirty) this.render();
  }

  render() {
    this.renderer.render(this.scene, this.camera);
    this.frames += 1;
    this.dirty = false;
  }

  objectNames() {
    const names = [];
    if (!this.content) return names;
    this.content.traverse(function (node) {
      const name = node.userData && node.userData.name;
      if (node.isMesh && name && name !== "ground") names.push(name);
    });
    return names;
  }

  // What is drawn, for tests: copies of plain values, never the three.js objects themselves.
  describe() {
    const found = [];
    if (!this.content) return found;
    const round = (value) => Math.round(value * 1000) / 1000;
    this.content.updateMatrixWorld(true);
    this.content.traverse(function (node) {
      const name = node.userData && node.userData.name;
      if (!node.isMesh || !name || name === "ground" || node.userData.outline) return;
      if (!node.geometry.boundingBox) node.geometry.computeBoundingBox();
      const box = node.geometry.boundingBox.clone().applyMatrix4(node.matrixWorld);
      const color = node.material.color;
      found.push({
        name,
        color: color ? color.toArray().map(round) : null,
        hex: color ? "#" + color.getHexString() : null,
        size: box.getSize(new THREE.Vector3()).toArray().map(round),
        center: box.getCenter(new THREE.Vector3()).toArray().map(round),
      });
    });
    return found;
  }

  // Show a loaded GLB: patch the content in place when its objects and lights are the same ones,
  // else replace it. `scene` is the revision's scene JSON (for the exact camera target).
  show(gltf, scene, { resetView = false } = {}) {
    const incoming = gltf.scene;
    incoming.traverse(function (node) {
      if (!node.isMesh) return;
      node.material = node.material.clone();  // each object owns its material
      useTransmission(node.material);
    });
    let how = "replaced";
    if (this.content && sameKeys(nodesByName(this.content), nodesByName(incoming))) {
      this.patch(incoming);
      dispose(incoming);
      how = "patched";
    } else {
      if (this.content) {
        this.scene.remove(this.content);
        dispose(this.content);
      }
      this.content = incoming;
      this.scene.add(incoming);
    }
    const background = incoming.userData.background;
    if (Array.isArray(background) && background.length >= 3) {
      this.scene.background = new THREE.Color().setRGB(
        background[0], background[1], background[2], THREE.LinearSRGBColorSpace);
    }
    this.scene.updateMatrixWorld(true);
    this.setupShadows();
    if (resetView || !this.userMoved) this.useSceneCamera(scene);
    this.render();
    return how;
  }

  patch(incoming) {
    const fresh = nodesByName(incoming);
    for (const [key, node] of nodesByName(this.content)) {
      const source = fresh.get(key);
      node.position.copy(source.position);
      node.quaternion.copy(source.quaternion);
      node.scale.copy(source.scale);
      node.userData = { ...source.userData };
      if (node.isMesh) {
        if (!sameGeometry(node.geometry, source.geometry)) {
          node.geometry.dispose();
          node.geometry = source.geometry;
          source.geometry = new THREE.BufferGeometry();  // not disposed with `incoming`
        }
        if (node.material.type === source.material.type) {
          copyMaterial(node.material, source.material);
        } else {  // glass to plastic or back: another kind of material, taken over whole
          node.material.dispose();
          node.material = source.material;
          source.material = new THREE.MeshBasicMaterial();  // not disposed with `incoming`
        }
      } else if (node.isLight) {
        copyLight(node, source);
      } else if (node.isCamera) {
        node.fov = source.fov;
        node.updateProjectionMatrix();
      }
    }
    this.content.userData = { ...incoming.userData };
  }

  bounds() {
    const box = new THREE.Box3();
    this.content.traverse(function (node) {
      if (!node.isMesh || !node.userData.name || node.userData.name === "ground") return;
      if (!node.geometry.boundingBox) node.geometry.computeBoundingBox();
      box.union(node.geometry.boundingBox.clone().applyMatrix4(node.matrixWorld));
    });
    if (box.isEmpty()) box.setFromCenterAndSize(new THREE.Vector3(0, 0.5, 0), new THREE.Vector3(1, 1, 1));
    return box;
  }

  setupShadows() {
    const sphere = this.bounds().getBoundingSphere(new THREE.Sphere());
    const radius = Math.max(sphere.radius, 0.25);
    const position = new THREE.Vector3(), target = new THREE.Vector3(), axis = new THREE.Vector3();
    this.content.traverse(function (node) {
      if (node.isMesh && !node.userData.outline) {
        node.castShadow = node.userData.name !== "ground";
        node.receiveShadow = true;
      }
      if (!node.isLight) return;
      node.castShadow = node.userData.cast_shadows !== false;
      if (!node.castShadow) return;
      node.getWorldPosition(position);
      const distance = position.distanceTo(sphere.center);
      const shadow = node.shadow;
      shadow.bias = -0.0002;
      shadow.normalBias = 0.004;
      if (node.isDirectionalLight) {
        node.target.getWorldPosition(target);
        axis.subVectors(target, position).normalize();
        const along = axis.dot(new THREE.Vector3().subVectors(sphere.center, position));
        const offAxis = position.clone().addScaledVector(axis, along).distanceTo(sphere.center);
        const extent = radius * 1.3 + offAxis;
        Object.assign(shadow.camera, { left: -extent, right: extent, top: extent, bottom: -extent });
        shadow.camera.near = Math.max(0.01, along - extent * 2);
        shadow.camera.far = along + extent * 2;
        shadow.mapSize.set(2048, 2048);
      } else {
        shadow.camera.near = 0.05;
        shadow.camera.far = distance + radius * 3;
        shadow.mapSize.set(1024, 1024);
      }
      shadow.camera.updateProjectionMatrix();
      if (shadow.map) { shadow.map.dispose(); shadow.map = null; }  // re-made at the new size
    });
  }

  // The GLB's camera as the view: its position and field of view, aimed at the scene's target.
  useSceneCamera(scene) {
    let source = null;
    this.content.traverse(function (node) { if (!source && node.isPerspectiveCamera) source = node; });
    if (!source) return;
    const position = source.getWorldPosition(new THREE.Vector3());
    let target = null;
    const stored = scene && scene.camera && scene.camera.target;
    if (Array.isArray(stored) && stored.length === 3) {
      target = new THREE.Vector3().fromArray(stored);
    } else {
      const direction = source.getWorldDirection(new THREE.Vector3());
      const center = this.bounds().getCenter(new THREE.Vector3());
      const along = Math.max(direction.dot(center.clone().sub(position)), 0.1);
      target = position.clone().addScaledVector(direction, along);
    }
    this.camera.position.copy(position);
    this.camera.fov = source.fov;
    const size = scene && scene.ground_size ? scene.ground_size : 20;
    this.camera.far = Math.max(100, size * 4, position.length() * 4);
    this.camera.updateProjectionMatrix();
    this.controls.target.copy(target);
    this.controls.update();
    this.dirty = true;
  }

  copyViewOf(other) {
    this.camera.position.copy(other.camera.position);
    this.camera.fov = other.camera.fov;
    this.camera.far = other.camera.far;
    this.camera.updateProjectionMatrix();
    this.controls.target.copy(other.controls.target);
    this.controls.update();
    this.userMoved = true;
    this.dirty = true;
  }
}

function start(root) {
  const api = root.dataset.api;
  const status = document.getElementById("sv-status");
  const empty = document.getElementById("sv-empty");
  const strip = document.getElementById("sv-history");
  const revertButton = document.getElementById("sv-revert");
  const compareButton = document.getElementById("sv-compare");
  const comparePanel = document.getElementById("sv-compare-panel");
  const compareHint = document.getElementById("sv-compare-hint");
  const diffList = document.getElementById("sv-diff");
  const downloads = document.querySelectorAll("#sv-downloads a[data-fmt]");
  const uploadForm = document.getElementById("sv-upload");
  const uploadResult = document.getElementById("sv-upload-result");
  const loader = new GLTFLoader();
  const state = {
    shown: null, detail: null, latest: 0, revisions: [], ready: false, pending: 0,
    following: true, token: 0, lastUpdate: null, comparing: false, picks: [], compareToken: 0,
  };
  let view = null, pair = null, editor = null;

  function setStatus(text, kind) {
    status.textContent = text;
    status.className = "sv-status " + (kind || "muted");
  }

  function csrfToken() {
    const input = root.querySelector("[name=csrfmiddlewaretoken]");
    return input ? input.value : "";
  }

  try {
    view = new View(document.getElementById("sv-canvas"));
  } catch (error) {
    setStatus("3D view unavailable (no WebGL): " + error.message, "error");
  }

  // A person's edit: the whole scene and what changed, stored as the next revision and shown.
  async function submitEdit(scene, source) {
    const response = await request(api + "revisions", {
      method: "POST",
      headers: { Accept: "application/json", "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
      body: JSON.stringify({ scene, source }),
    });
    const created = await response.json();
    state.latest = Math.max(state.latest, created.number);
    state.following = true;
    await refreshHistory();
    await show(created.number);
    return created;
  }

  if (view) {
    editor = new Editor({
      view, root,
      getScene: () => (state.detail ? state.detail.scene : { objects: [] }),
      submit: submitEdit,
      reload: () => (state.shown !== null ? show(state.shown) : Promise.resolve()),
      setStatus,
      materialsUrl: root.dataset.materials,
    });
  }

  window.studioViewer = {
    get revision() { return state.shown; },
    get frames() { return view ? view.frames : 0; },
    get lastUpdate() { return state.lastUpdate; },
    get selected() { return editor ? editor.selected : null; },
    get busy() { return editor ? editor.busy : false; },
    objectNames() { return view ? view.objectNames() : []; },
    objects() { return view ? view.describe() : []; },
    show(number) { return show(number); },
    select(name) { if (editor) editor.select(name); },
    screenPosition(name) { return editor ? editor.screenPosition(name) : null; },
    materialOf(name) {
      const mesh = editor ? editor.meshNamed(name) : null;
      if (!mesh) return null;
      const m = mesh.material;
      return { type: m.type, metalness: m.metalness, roughness: m.roughness,
        transmission: m.transmission || 0, transparent: m.transparent };
    },
    get hasEnvironment() { return Boolean(view && view.scene.environment); },
  };

  async function revisionFiles(number) {
    const base = api + "revisions/" + number;
    const [detail, glb] = await Promise.all([
      getJSON(base),
      request(base + "/export.glb").then((response) => response.arrayBuffer()),
    ]);
    const gltf = await loader.parseAsync(glb, "");
    return { detail, gltf };
  }

  async function show(number) {
    const token = ++state.token;
    setStatus("loading revision " + number + "…");
    try {
      const { detail, gltf } = await revisionFiles(number);
      if (token !== state.token) return;  // a newer request took over
      if (view) state.lastUpdate = view.show(gltf, detail.scene);
      state.shown = number;
      state.detail = detail;
      if (editor) editor.refresh();
      empty.hidden = true;
      const verdict = detail.passed === true ? " · checks passed"
        : detail.passed === false ? " · " + detail.checks_passed + "/" + detail.checks_total + " checks passed" : "";
      setStatus("revision " + number + " · " + detail.source + verdict);
      updateToolbar();
      markStrip();
    } catch (error) {
      if (token === state.token) setStatus("revision " + number + ": " + error.message, "error");
    }
  }

  function updateToolbar() {
    const number = state.shown;
    for (const link of downloads) {
      const fmt = link.dataset.fmt;
      const available = number !== null && (fmt !== "png" || (state.detail && state.detail.thumbnail_url));
      link.hidden = !available;
      if (available) link.href = api + "revisions/" + number + "/export." + fmt;
      else link.removeAttribute("href");
    }
    revertButton.disabled = number === null || number === state.latest;
  }

  async function refreshHistory() {
    state.revisions = await getJSON(api + "revisions");
    for (const revision of state.revisions) state.latest = Math.max(state.latest, revision.number);
    renderHistory();
  }

  function renderHistory() {
    strip.replaceChildren(...state.revisions.map(function (revision) {
      const item = el("li");
      const button = el("button", "sv-rev");
      button.type = "button";
      button.dataset.number = revision.number;
      button.title = revision.source + " · " + new Date(revision.created_at).toLocaleString();
      if (revision.thumbnail_url) {
        const image = el("img");
        image.src = revision.thumbnail_url;
        image.alt = "render of revision " + revision.number;
        image.loading = "lazy";
        button.appendChild(image);
      } else {
        button.appendChild(el("span", "sv-no-render", "no render"));
      }
      const label = el("span", "sv-label");
      label.appendChild(el("span", "sv-number", "#" + revision.number));
      const verdict = revision.passed === true ? ["pass", "pass"]
        : revision.passed === false ? ["fail", "fail"] : ["none", revision.source];
      label.appendChild(el("span", "sv-badge sv-" + verdict[0], verdict[1]));
      button.appendChild(label);
      item.appendChild(button);
      return item;
    }));
    markStrip();
  }

  function markStrip() {
    for (const button of strip.querySelectorAll("button.sv-rev")) {
      const number = Number(button.dataset.number);
      button.classList.toggle("shown", !state.comparing && number === state.shown);
      button.classList.toggle("picked", state.comparing && state.picks.includes(number));
      button.setAttribute("aria-pressed", String(state.comparing ? state.picks.includes(number) : number === state.shown));
    }
    updateToolbar();
  }

  strip.addEventListener("click", function (click) {
    const button = click.target.closest("button.sv-rev");
    if (!button) return;
    const number = Number(button.dataset.number);
    if (state.comparing) {
      pick(number);
    } else {
      state.following = number === state.latest;
      show(number);
    }
  });

  revertButton.addEventListener("click", async function () {
    const number = state.shown;
    if (number === null) return;
    revertButton.disabled = true;
    try {
      const response = await request(api + "revisions/" + number + "/revert", {
        method: "POST",
        headers: { Accept: "application/json", "X-CSRFToken": csrfToken() },
      });
      const created = await response.json();
      state.latest = Math.max(state.latest, created.number);
      state.following = true;
      await refreshHistory();
      await show(created.number);
    } catch (error) {
      setStatus("revert failed: " + error.message, "error");
      updateToolbar();
    }
  });

  // --- compare two revisions side by side ------------------------------------------------------

  function comparePair() {
    if (pair) return pair;
    const a = new View(document.getElementById("sv-canvas-a"));
    const b = new View(document.getElementById("sv-canvas-b"));
    let syncing = false;
    function follow(from, to) {
      from.controls.addEventListener("change", function () {
        if (syncing) return;
        syncing = true;
        to.copyViewOf(from);
        syncing = false;
      });
    }
    follow(a, b);
    follow(b, a);
    pair = { a, b };
    return pair;
  }

  compareButton.addEventListener("click", function () {
    state.comparing = !state.comparing;
    comparePanel.hidden = !state.comparing;
    compareButton.textContent = state.comparing ? "Done comparing" : "Compare";
    compareButton.setAttribute("aria-pressed", String(state.comparing));
    state.picks = state.comparing && state.shown !== null ? [state.shown] : [];
    diffList.replaceChildren();
    markStrip();
    pickHint();
  });

  // What the person still has to do; nothing is asked once two revisions are picked.
  function pickHint() {
    const count = state.picks.length;
    compareHint.textContent = count === 0 ? "Pick two revisions in the strip above."
      : count === 1 ? "Revision " + state.picks[0] + " picked: pick one more in the strip to compare."
      : compareHint.textContent;
  }

  function pick(number) {
    if (state.picks.includes(number)) state.picks = state.picks.filter((n) => n !== number);
    else state.picks = [...state.picks, number].slice(-2);
    markStrip();
    if (state.picks.length === 2) compare();
    else { state.compareToken += 1; pickHint(); }
  }

  async function compare() {
    const [a, b] = [...state.picks].sort((x, y) => x - y);
    const token = ++state.compareToken;
    compareHint.textContent = "Loading revisions " + a + " and " + b + "…";
    try {
      const views = comparePair();
      const [left, right, diff] = await Promise.all([
        revisionFiles(a), revisionFiles(b), getJSON(api + "diff?a=" + a + "&b=" + b),
      ]);
      if (token !== state.compareToken) return;
      views.a.show(left.gltf, left.detail.scene, { resetView: true });
      views.b.show(right.gltf, right.detail.scene, { resetView: true });
      if (view) { views.a.copyViewOf(view); views.b.copyViewOf(view); }
      document.getElementById("sv-label-a").textContent = "#" + a + " · " + left.detail.source;
      document.getElementById("sv-label-b").textContent = "#" + b + " · " + right.detail.source;
      compareHint.textContent = "Revision " + a + " (left) and " + b + " (right); orbit either one.";
      renderDiff(diff);
    } catch (error) {
      if (token === state.compareToken) compareHint.textContent = "Compare failed: " + error.message;
    }
  }

  function rounded(value) {
    if (typeof value === "number") return Number(value.toFixed(DIFF_DECIMALS));
    if (Array.isArray(value)) return value.map(rounded);
    if (value && typeof value === "object") {
      return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, rounded(item)]));
    }
    return value;
  }

  function showValue(value) {
    if (typeof value === "string") return value;
    const text = JSON.stringify(rounded(value));
    return Array.isArray(value) ? text.replace(/,/g, ", ") : text;
  }

  function renderDiff(diff) {
    const items = [];
    for (const name of diff.added) items.push(el("li", "sv-added", "+ " + name + " added"));
    for (const name of diff.removed) items.push(el("li", "sv-removed", "− " + name + " removed"));
    for (const [name, fields] of Object.entries(diff.changed)) {
      for (const [path, change] of Object.entries(fields)) {
        items.push(el("li", "sv-changed",
          name + " · " + path + ": " + showValue(change.before) + " → " + showValue(change.after)));
      }
    }
    if (!items.length) items.push(el("li", "muted", "No differences."));
    diffList.replaceChildren(...items);
  }

  // --- mesh upload -----------------------------------------------------------------------------

  uploadForm.addEventListener("submit", async function (submit) {
    submit.preventDefault();
    const input = uploadForm.querySelector("input[type=file]");
    const file = input.files && input.files[0];
    uploadResult.className = "sv-upload-result";
    if (!file) {
      uploadResult.textContent = "Choose a mesh file first.";
      uploadResult.classList.add("error");
      return;
    }
    const body = new FormData();
    body.append("file", file);
    uploadResult.textContent = "Uploading " + file.name + "…";
    try {
      const response = await request(api + "meshes", {
        method: "POST",
        body,
        headers: { Accept: "application/json", "X-CSRFToken": csrfToken() },
      });
      const mesh = await response.json();
      uploadResult.textContent = mesh.name + " uploaded as " + mesh.ref + ": " +
        mesh.faces.toLocaleString() + " triangles, " + mesh.vertices.toLocaleString() +
        " vertices" + (mesh.units_guess !== "m" ? " (looks like " + mesh.units_guess + ": scale " + mesh.scale_to_metres + ")" : "") +
        '. Use it as {"kind": "mesh", "params": {"ref": "' + mesh.ref + '"}}.';
      uploadResult.classList.add("ok");
      uploadForm.reset();
    } catch (error) {
      uploadResult.textContent = "Upload failed: " + error.message;
      uploadResult.classList.add("error");
    }
  });

  // --- live updates from the run timeline ------------------------------------------------------

  document.addEventListener("run-event", function (dispatched) {
    const event = dispatched.detail;
    if (!event || event.type !== "round.completed") return;
    const number = Number(event.payload && event.payload.revision);
    if (!Number.isInteger(number) || number < 1) return;
    if (!state.ready) {
      state.pending = Math.max(state.pending, number);
      return;
    }
    if (number <= state.latest) return;  // a replayed, older round
    state.latest = number;
    refreshHistory().catch(function () { /* the strip catches up on the next round */ });
    if (state.following) show(number);
    else setStatus("revision " + number + " is new: pick it in the strip to see it");
  });

  function frame() {
    if (view) view.tick();
    if (pair && state.comparing) { pair.a.tick(); pair.b.tick(); }
    requestAnimationFrame(frame);
  }
  requestAnimationFrame(frame);

  (async function init() {
    try {
      await refreshHistory();
    } catch (error) {
      setStatus("could not list revisions: " + error.message, "error");
    }
    state.ready = true;
    const first = Math.max(state.latest, state.pending);
    state.latest = first;
    if (first) {
      await show(first);
    } else {
      empty.hidden = false;
      setStatus("no scene yet");
      updateToolbar();
    }
  })();
}

const root = document.getElementById("studio-viewer");
if (root) start(root);
