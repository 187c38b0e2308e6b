// Hands on the scene: select an object (click it in the view or pick it in the outliner), see it
// outlined, change it in the properties panel or with the move / rotate / scale gizmo, delete or
// duplicate it. Every change is sent to the studio API as a user edit (the whole scene and a
// source such as "edit: moved chair"); the server validates and checks it and stores it as the
// next revision, which the viewer then shows. A refused edit shows the server's reason and the
// view goes back to the stored scene.
//
// Moving, rotating or resizing drops the object onto the top of whatever is under it (or the
// ground), as objects rest in the studio's scenes.
import * as THREE from "three";
import { TransformControls } from "three/addons/controls/TransformControls.js";

const OUTLINE_COLOR = 0xffa31a;
const CLICK_SLOP_PX = 5;  // a pointer that moved further than this orbited, it did not click
const DECIMALS = 4;       // 0.1 mm and 0.0001 degree: no float noise in the stored scene
const SOURCE_CHARS = 80;  // the API's limit on an edit's source

const round = (value) => Math.round(value * 10 ** DECIMALS) / 10 ** DECIMALS;
const degrees = (radians) => round(THREE.MathUtils.radToDeg(radians));

// A name as it may appear in an edit's source: plain letters, digits and simple punctuation.
function plain(name) {
  return name.replace(/[^\p{L}\p{N}_ .,:;'()+\-/#&]+/gu, " ").replace(/\s+/g, " ").trim();
}

function editSource(verb, name, rest) {
  const text = "edit: " + verb + " " + plain(name) + (rest ? " " + plain(rest) : "");
  return text.slice(0, SOURCE_CHARS).trimEnd();
}

function linearToHex(rgb) {
  return "#" + new THREE.Color().setRGB(rgb[0], rgb[1], rgb[2], THREE.LinearSRGBColorSpace).getHexString();
}

function hexToLinear(hex) {
  const color = new THREE.Color(hex);  // sRGB in, linear working space out
  return [round(color.r), round(color.g), round(color.b)];
}

// The object's own (local, unscaled) bounding box, from its geometry.
function localBox(mesh) {
  if (!mesh.geometry.boundingBox) mesh.geometry.computeBoundingBox();
  return mesh.geometry.boundingBox;
}

function worldBox(mesh) {
  mesh.updateMatrixWorld(true);
  return localBox(mesh).clone().applyMatrix4(mesh.matrixWorld);
}

// A slightly larger, back-faced copy of the mesh behind it: an outline that follows the shape.
function addOutline(mesh) {
  const box = localBox(mesh);
  const size = box.getSize(new THREE.Vector3());
  const center = box.getCenter(new THREE.Vector3());
  const world = size.clone().multiply(mesh.scale);
  const margin = 0.012 + 0.015 * Math.max(world.x, world.y, world.z);
  const material = new THREE.MeshBasicMaterial({ color: OUTLINE_COLOR, side: THREE.BackSide });
  const hull = new THREE.Mesh(mesh.geometry, material);
  for (const axis of ["x", "y", "z"]) {
    const grown = size[axis] > 1e-6 ? (size[axis] + 2 * margin / mesh.scale[axis]) / size[axis] : 1;
    hull.scale[axis] = grown;
    hull.position[axis] = center[axis] * (1 - grown);
  }
  hull.name = "selection outline";
  hull.userData = { outline: true };
  hull.castShadow = false;
  hull.receiveShadow = false;
  hull.raycast = function () {};  // never picked
  mesh.add(hull);
  return hull;
}

export class Editor {
  constructor({ view, root, getScene, submit, reload, setStatus, materialsUrl }) {
    this.view = view;
    this.getScene = getScene;
    this.submit = submit;
    this.reload = reload;
    this.setStatus = setStatus;
    this.selected = null;
    this.outline = null;
    this.busy = false;
    this.presets = [];
    this.outliner = root.querySelector("#sv-outliner");
    this.form = root.querySelector("#sv-props");
    this.fields = root.querySelector("#sv-props-fields");
    this.emptyNote = root.querySelector("#sv-props-empty");
    this.result = root.querySelector("#sv-edit-result");
    this.tools = root.querySelector("#sv-tools");
    this.raycaster = new THREE.Raycaster();

    this.gizmo = new TransformControls(view.camera, view.canvas);
    this.gizmo.setSize(0.8);
    this.helper = this.gizmo.getHelper();
    view.scene.add(this.helper);
    this.gizmo.addEventListener("change", () => { view.dirty = true; });
    this.gizmo.addEventListener("dragging-changed", (event) => {
      view.controls.enabled = !event.value;
      if (!event.value) this.gizmoDropped();
    });

    this.listen(root);
    this.loadPresets(materialsUrl);
  }

  // --- selection -------------------------------------------------------------------------------

  meshNamed(name) {
    let found = null;
    if (!this.view.content || name === null) return null;
    this.view.content.traverse(function (node) {
      if (!found && node.isMesh && node.userData && node.userData.name === name) found = node;
    });
    return found;
  }

  objectData(scene, name) {
    return (scene && scene.objects || []).find((item) => item.name === name) || null;
  }

  select(name) {
    const scene = this.getScene();
    if (name !== null && !this.objectData(scene, name)) name = null;
    this.selected = name;
    if (this.outline) {
      this.outline.removeFromParent();
      this.outline.material.dispose();
      this.outline = null;
    }
    const mesh = this.meshNamed(name);
    if (mesh) {
      this.outline = addOutline(mesh);
      this.gizmo.attach(mesh);
    } else {
      this.gizmo.detach();
    }
    this.tools.hidden = !mesh;
    this.renderOutliner(scene);
    this.fillPanel(scene);
    this.view.dirty = true;
  }

  // After the viewer shows a revision: the same object stays selected where it still exists.
  refresh() {
    this.select(this.selected);
  }

  renderOutliner(scene) {
    const objects = (scene && scene.objects) || [];
    this.outliner.replaceChildren(...objects.map((item) => {
      const li = document.createElement("li");
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = item.name;
      button.dataset.name = item.name;
      button.setAttribute("aria-current", String(item.name === this.selected));
      li.appendChild(button);
      return li;
    }));
  }

  fillPanel(scene) {
    const item = this.objectData(scene, this.selected);
    const mesh = this.meshNamed(this.selected);
    this.fields.hidden = !item;
    this.emptyNote.hidden = Boolean(item);
    if (!item) return;
    const field = (name) => this.form.elements.namedItem(name);
    const transform = item.transform || {};
    const translation = transform.translation || [0, 0, 0];
    const rotation = transform.rotation || [0, 0, 0];
    const material = item.material || {};
    field("name").value = item.name;
    if (mesh) {
      const size = localBox(mesh).getSize(new THREE.Vector3()).multiply(mesh.scale);
      ["x", "y", "z"].forEach((axis) => { field("size-" + axis).value = round(size[axis]).toFixed(3); });
    }
    ["x", "y", "z"].forEach((axis, i) => {
      field("pos-" + axis).value = round(translation[i]).toFixed(3);
      field("rot-" + axis).value = String(round(rotation[i]));
    });
    const base = material.base_color || [0.8, 0.8, 0.8];
    field("color").value = linearToHex(base);
    field("roughness").value = String(material.roughness ?? 0.5);
    field("metallic").value = String(material.metallic ?? 0);
    const preset = this.presets.find((entry) => entry.name === material.name);
    field("preset").value = preset ? preset.name : "";
  }

  async loadPresets(url) {
    if (!url) return;
    try {
      const response = await fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } });
      if (!response.ok) return;
      this.presets = await response.json();
    } catch (error) {
      return;  // the panel still works with colours and finishes
    }
    const select = this.form.elements.namedItem("preset");
    for (const preset of this.presets) {
      const option = document.createElement("option");
      option.value = preset.name;
      option.textContent = preset.name;
      select.appendChild(option);
    }
    this.fillPanel(this.getScene());
  }

  // --- picking in the canvas ---------------------------------------------------------------------

  pick(clientX, clientY) {
    const rect = this.view.canvas.getBoundingClientRect();
    const pointer = new THREE.Vector2(
      ((clientX - rect.left) / rect.width) * 2 - 1,
      -((clientY - rect.top) / rect.height) * 2 + 1,
    );
    this.raycaster.setFromCamera(pointer, this.view.camera);
    if (!this.view.content) return null;
    for (const hit of this.raycaster.intersectObject(this.view.content, true)) {
      const name = hit.object.userData && hit.object.userData.name;
      if (hit.object.isMesh && name && name !== "ground") return name;
    }
    return null;
  }

  // Where an object's centre is on the page (for tests and for scripts driving the mouse).
  screenPosition(name) {
    const mesh = this.meshNamed(name);
    if (!mesh) return null;
    const center = worldBox(mesh).getCenter(new THREE.Vector3()).project(this.view.camera);
    const rect = this.view.canvas.getBoundingClientRect();
    return {
      x: rect.left + (center.x + 1) / 2 * rect.width,
      y: rect.top + (1 - center.y) / 2 * rect.height,
    };
  }

  listen(root) {
    const canvas = this.view.canvas;
    let down = null;
    canvas.addEventListener("pointerdown", (event) => {
      const onGizmo = this.gizmo.dragging || (this.gizmo.object && this.gizmo.axis !== null);
      down = event.button === 0 && !onGizmo ? { x: event.clientX, y: event.clientY } : null;
    });
    canvas.addEventListener("pointerup", (event) => {
      if (!down || this.gizmo.dragging) return;
      const moved = Math.hypot(event.clientX - down.x, event.clientY - down.y);
      down = null;
      if (moved <= CLICK_SLOP_PX) this.select(this.pick(event.clientX, event.clientY));
    });
    this.outliner.addEventListener("click", (event) => {
      const button = event.target.closest("button[data-name]");
      if (button) this.select(button.dataset.name);
    });
    this.tools.addEventListener("click", (event) => {
      const button = event.target.closest("button[data-mode]");
      if (button) this.setMode(button.dataset.mode);
    });
    this.form.addEventListener("submit", (event) => event.preventDefault());
    this.form.addEventListener("change", (event) => this.panelChanged(event.target));
    root.querySelector("#sv-delete").addEventListener("click", () => this.deleteSelected());
    root.querySelector("#sv-duplicate").addEventListener("click", () => this.duplicateSelected());
    document.addEventListener("keydown", (event) => this.key(event));
  }

  setMode(mode) {
    this.gizmo.setMode(mode);
    for (const button of this.tools.querySelectorAll("button[data-mode]")) {
      button.setAttribute("aria-pressed", String(button.dataset.mode === mode));
    }
    this.view.dirty = true;
  }

  key(event) {
    const target = event.target;
    if (target && (target.isContentEditable || /^(INPUT|SELECT|TEXTAREA)$/.test(target.tagName))) return;
    if (this.selected === null) return;
    const key = event.key.toLowerCase();
    if ((event.ctrlKey || event.metaKey) && key === "d") {
      event.preventDefault();  // not the browser's bookmark
      this.duplicateSelected();
    } else if (event.ctrlKey || event.metaKey || event.altKey) {
      return;
    } else if (key === "delete" || key === "backspace") {
      event.preventDefault();
      this.deleteSelected();
    } else if (key === "escape") {
      this.select(null);
    } else if (key in { w: 1, e: 1, r: 1 }) {
      this.setMode({ w: "translate", e: "rotate", r: "scale" }[key]);
    }
  }

  // --- changes -------------------------------------------------------------------------------------

  // Drop the mesh onto the highest top under it (objects overlapping it seen from above, whose
  // top is below its middle), or onto the ground.
  dropOntoSupport(mesh) {
    const box = worldBox(mesh);
    const middle = (box.min.y + box.max.y) / 2;
    let support = 0;
    this.view.content.traverse((node) => {
      const name = node.userData && node.userData.name;
      if (!node.isMesh || node === mesh || !name || name === "ground" || node.userData.outline) return;
      const other = worldBox(node);
      const overlaps = other.min.x < box.max.x && other.max.x > box.min.x &&
        other.min.z < box.max.z && other.max.z > box.min.z;
      if (overlaps && other.max.y <= middle) support = Math.max(support, other.max.y);
    });
    mesh.position.y += support - box.min.y;
    mesh.updateMatrixWorld(true);
  }

  // The stored transform of a mesh as the scene writes it (Euler X, then Y, then Z, about fixed
  // axes: three.js's "ZYX" order).
  transformOf(mesh) {
    const euler = new THREE.Euler().setFromQuaternion(mesh.quaternion, "ZYX");
    return {
      translation: mesh.position.toArray().map(round),
      rotation: [degrees(euler.x), degrees(euler.y), degrees(euler.z)],
      scale: mesh.scale.toArray().map(round),
    };
  }

  gizmoDropped() {
    const mesh = this.gizmo.object;
    if (!mesh || this.selected === null) return;
    const mode = this.gizmo.getMode();
    this.dropOntoSupport(mesh);
    const verb = { translate: "moved", rotate: "rotated", scale: "resized" }[mode];
    this.change(editSource(verb, this.selected), (item) => {
      item.transform = this.transformOf(mesh);
      // A size the person chose is theirs: the checks warn about it, never change it.
      if (mode === "scale") item.size_stated = true;
    });
  }

  panelChanged(input) {
    const name = this.selected;
    const mesh = this.meshNamed(name);
    if (!input || !input.name || name === null || !mesh) return;
    const value = (field) => Number(this.form.elements.namedItem(field).value);
    const group = input.name.split("-")[0];
    if (input.name === "name") {
      const fresh = input.value.trim();
      if (!fresh || fresh === name) { input.value = name; return; }
      this.selected = fresh;  // keep it selected under its new name
      this.change(editSource("renamed", name, "to " + fresh), (item) => { item.name = fresh; }, name);
    } else if (group === "size") {
      const wanted = new THREE.Vector3(value("size-x"), value("size-y"), value("size-z"));
      if (![wanted.x, wanted.y, wanted.z].every((v) => Number.isFinite(v) && v > 0)) {
        this.showResult("Sizes must be positive numbers of metres.", "error");
        this.fillPanel(this.getScene());
        return;
      }
      const base = localBox(mesh).getSize(new THREE.Vector3());
      mesh.scale.set(wanted.x / (base.x || 1), wanted.y / (base.y || 1), wanted.z / (base.z || 1));
      this.dropOntoSupport(mesh);
      this.change(editSource("resized", name), (item) => {
        const transform = this.transformOf(mesh);
        const scale = (item.transform && item.transform.scale) || [1, 1, 1];
        if (item.shape && item.shape.kind === "box" && scale.every((v) => v === 1)) {
          // A plain box takes the size itself: "size": [w, h, d], scale left at 1.
          item.shape.params = { ...item.shape.params, size: [wanted.x, wanted.y, wanted.z].map(round) };
          transform.scale = [1, 1, 1];
        }
        item.transform = transform;
        item.size_stated = true;
      });
    } else if (group === "pos") {
      const target = [value("pos-x"), value("pos-y"), value("pos-z")];
      const dropped = input.name !== "pos-y";  // a typed height is kept as typed
      mesh.position.fromArray(target);
      if (dropped) this.dropOntoSupport(mesh);
      this.change(editSource("moved", name), (item) => { item.transform = this.transformOf(mesh); });
    } else if (group === "rot") {
      const angles = [value("rot-x"), value("rot-y"), value("rot-z")];
      this.change(editSource("rotated", name), (item) => {
        item.transform = { ...(item.transform || {}), rotation: angles.map(round) };
      });
    } else if (input.name === "preset") {
      const preset = this.presets.find((entry) => entry.name === input.value);
      if (!preset) return;
      this.change(editSource("made", name, preset.name), (item) => {
        const emissive = item.material && item.material.emissive;
        item.material = { ...preset, ...(emissive && emissive.some((v) => v > 0) ? { emissive } : {}) };
      });
    } else if (input.name === "color") {
      this.change(editSource("recoloured", name), (item) => {
        item.material = { ...(item.material || {}), base_color: hexToLinear(input.value) };
      });
    } else if (input.name === "roughness" || input.name === "metallic") {
      const number = Number(input.value);
      this.change(editSource("changed finish of", name), (item) => {
        item.material = { ...(item.material || {}), [input.name]: number };
      });
    }
  }

  deleteSelected() {
    const name = this.selected;
    if (name === null || this.busy) return;
    this.selected = null;
    this.change(editSource("deleted", name), null, name);
  }

  duplicateSelected() {
    const name = this.selected;
    const scene = this.getScene();
    const item = this.objectData(scene, name);
    const mesh = this.meshNamed(name);
    if (!item || !mesh || this.busy) return;
    const names = new Set(scene.objects.map((entry) => entry.name));
    const stem = name.replace(/ \d+$/, "");
    let number = 2;
    while (names.has(stem + " " + number)) number += 1;
    const copyName = (stem + " " + number).slice(0, 100);
    // Beside the original where nothing else stands (right, left, behind, in front, then further
    // out), dropped onto what is under it.
    const transform = this.freeSpotBeside(mesh);
    const copy = { ...structuredClone(item), name: copyName, transform };
    this.selected = copyName;
    this.send(editSource("duplicated", name), { ...scene, objects: [...scene.objects, copy] });
  }

  freeSpotBeside(mesh) {
    const size = worldBox(mesh).getSize(new THREE.Vector3());
    const original = mesh.position.clone();
    const others = [];
    this.view.content.traverse((node) => {
      const name = node.userData && node.userData.name;
      if (node.isMesh && node !== mesh && name && name !== "ground" && !node.userData.outline) {
        others.push(worldBox(node));
      }
    });
    const gap = Math.max(0.05, 0.15 * Math.max(size.x, size.z));
    const steps = [[1, 0], [-1, 0], [0, -1], [0, 1], [1, -1], [-1, -1], [1, 1], [-1, 1]];
    let transform = null;
    for (let ring = 1; ring <= 4 && !transform; ring++) {
      for (const [dx, dz] of steps) {
        mesh.position.set(original.x + dx * ring * (size.x + gap), original.y,
          original.z + dz * ring * (size.z + gap));
        this.dropOntoSupport(mesh);
        const box = worldBox(mesh).expandByScalar(-0.005);
        if (!others.some((other) => other.intersectsBox(box) && other.max.y > box.min.y + 0.01)) {
          transform = this.transformOf(mesh);
          break;
        }
      }
    }
    if (!transform) {  // crowded all round: beside it anyway, the checks will say so
      mesh.position.set(original.x + size.x + gap, original.y, original.z);
      this.dropOntoSupport(mesh);
      transform = this.transformOf(mesh);
    }
    mesh.position.copy(original);
    mesh.updateMatrixWorld(true);
    return transform;
  }

  // Apply `edit` to a copy of the named object (null: remove it) and send the scene.
  change(source, edit, name = this.selected) {
    const scene = structuredClone(this.getScene());
    const index = scene.objects.findIndex((item) => item.name === name);
    if (index < 0) return;
    if (edit === null) scene.objects.splice(index, 1);
    else edit(scene.objects[index]);
    this.send(source, scene);
  }

  async send(source, scene) {
    this.busy = true;
    this.fields.disabled = true;
    this.showResult("Saving: " + source + "…", "");
    try {
      const created = await this.submit(scene, source);
      this.showResult("Saved as revision " + created.number + " (" + created.source + ")" +
        (created.passed === false ? ": " + created.checks_passed + "/" + created.checks_total + " checks pass" : ""), "ok");
    } catch (error) {
      this.showResult("Edit refused: " + error.message, "error");
      await this.reload();  // back to the stored scene
      this.setStatus("edit refused: " + error.message, "error");
    } finally {
      this.busy = false;
      this.fields.disabled = false;
    }
  }

  showResult(text, kind) {
    this.result.textContent = text;
    this.result.className = "sv-edit-result" + (kind ? " " + kind : "");
  }
}
