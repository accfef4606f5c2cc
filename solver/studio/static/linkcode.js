// Text as it travels in a share link's address: UTF-8, then base64url (no padding), and back.
export function linkCode(text) {
  let bin = "";
  for (const b of new TextEncoder().encode(text)) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

export function fromCode(code) {
  try {
    const bin = atob(code.replace(/-/g, "+").replace(/_/g, "/"));
    return new TextDecoder().decode(Uint8Array.from(bin, (ch) => ch.charCodeAt(0)));
  } catch (e) { return null; }
}

// the value of ``key`` in the address's fragment (#mission=...&pieces=...), decoded; or null
export function fromLink(key) {
  const m = new RegExp(`(?:^#|&)${key}=([A-Za-z0-9_-]+)`).exec(location.hash);
  return m ? fromCode(m[1]) : null;
}
