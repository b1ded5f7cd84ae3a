// A tiny element builder: h("button", {class: "x", onclick: fn}, "text", child, [more]).

export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  if (attrs) {
    for (const [key, value] of Object.entries(attrs)) {
      if (value === undefined || value === null || value === false) continue;
      if (key === "class") el.className = Array.isArray(value) ? value.flat(Infinity).filter(Boolean).join(" ") : value;
      else if (key === "dataset") Object.assign(el.dataset, value);
      else if (key === "style" && typeof value === "object") Object.assign(el.style, value);
      else if (key.startsWith("on") && typeof value === "function") {
        el.addEventListener(key.slice(2), value);
      } else if (value === true) el.setAttribute(key, "");
      else el.setAttribute(key, String(value));
    }
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children) {
    const node = readable(child);
    if (Array.isArray(node)) append(el, node);
    else if (node !== null) el.append(node);
  }
}

/** What a child reads as: a node, a text node, an array to flatten, or null for nothing. A
 *  missing value (null, undefined, false, NaN) and an object that is no node are nothing on
 *  the screen, never "null" or "[object Object]" (issue 35.5). */
function readable(child) {
  if (child === undefined || child === null || child === false || Number.isNaN(child)) return null;
  if (Array.isArray(child) || child instanceof Node) return child;
  if (typeof child === "object" || typeof child === "function") {
    console.warn("not drawn: a value that is no text", child);
    return null;
  }
  return document.createTextNode(String(child));
}

/** Flattened, readable children for a DOM method that takes nodes and strings. */
function readableArgs(args) {
  const out = [];
  const walk = (list) => {
    for (const child of list) {
      const node = readable(child);
      if (Array.isArray(node)) walk(node);
      else if (node !== null) out.push(node);
    }
  };
  walk(args);
  return out;
}

// The DOM's own builders (append, prepend, replaceChildren, before, after, replaceWith) print
// a null child as "null": every page draws through them, so they take the same children h()
// does, and no path can print a missing value (issue 35.5).
for (const proto of [Element.prototype, Document.prototype, DocumentFragment.prototype, CharacterData.prototype]) {
  for (const name of ["append", "prepend", "replaceChildren", "before", "after", "replaceWith"]) {
    const original = proto[name];
    if (typeof original !== "function" || original.readable) continue;
    const guarded = function (...args) {
      return original.apply(this, readableArgs(args));
    };
    guarded.readable = true;
    Object.defineProperty(proto, name, { value: guarded, writable: true, configurable: true });
  }
}

/** Show a transient message in the page's toast area (role=alert for errors). */
export function toast(message, kind = "error") {
  let area = document.getElementById("toasts");
  if (!area) {
    area = h("div", { id: "toasts", class: "toasts" });
    document.body.append(area);
  }
  const item = h(
    "div",
    { class: `toast toast-${kind}`, role: kind === "error" ? "alert" : "status" },
    message,
  );
  area.append(item);
  setTimeout(() => item.classList.add("toast-leaving"), 5500);
  setTimeout(() => item.remove(), 6000);
  return item;
}

export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = h("textarea", { style: { position: "fixed", opacity: "0" } });
    area.value = text;
    document.body.append(area);
    area.select();
    let ok = false;
    try {
      ok = document.execCommand("copy");
    } catch {
      ok = false;
    }
    area.remove();
    return ok;
  }
}

/** replaceChildren, skipping null/false/undefined children (and flattening arrays). */
export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}
