// Actors as people read them. The journal names an MCP session "mcp:<session id>" (a random
// id, 26 characters for a streamable HTTP session, "stdio-" and 12 for a stdio one), or
// "mcp:<client name>/<session id>" when the client's name is recorded: the label is the
// client's name (else "mcp") and the id's first six characters; the full actor goes in the
// label's tooltip. Other actors ("web", "cli", an agent's own name) are short already.

// actorLabel returns {label, title} for actor: title is the actor whole, "" when the label
// is the whole actor.
export function actorLabel(actor) {
  if (!actor?.startsWith("mcp:")) return { label: actor ?? "", title: "" };
  const rest = actor.slice(4);
  const cut = rest.lastIndexOf("/");
  const client = cut > 0 ? rest.slice(0, cut) : "";
  let id = rest.slice(cut + 1);
  // A token's or an OAuth subject's name is chosen by a person: kept whole, if short.
  const kind = /^(stdio|token|oauth)-/.exec(id)?.[1];
  if (kind) id = id.slice(kind.length + 1);
  const short = kind === "token" || kind === "oauth" ? (id.length <= 12 ? id : id.slice(0, 10) + "…") : id.slice(0, 6);
  const label = [client || (kind === "token" || kind === "oauth" ? kind : "mcp"), short].filter(Boolean).join(" ");
  return { label, title: label === actor ? "" : actor };
}
