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
    if (child === undefined || child === null || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else el.append(child instanceof Node ? child : document.createTextNode(String(child)));
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
