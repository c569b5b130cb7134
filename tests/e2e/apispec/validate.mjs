// Checks REST traffic and gateway dispatches recorded by the Discord emulator against Discord's
// published API schema.
//
// Usage: node validate.mjs traffic.json
//   traffic.json: [{method, route, status, request?, response?} | {event, d}, ...], route as sent
//   after /api/v10; {event, d} is a gateway DISPATCH (see "gateway dispatches" below).
// Prints one line per distinct problem and exits 1 if there is any: a route the spec does not
// know, a body it does not expect, unknown fields, wrong types, missing required fields, lengths
// and counts over its limits, a status it does not list.
//
// The schemas are discord-api-spec's Zod ones. That file builds every object with `z.object`, which
// drops unknown keys silently; its `setStrictObject` switch acts only before the schemas are built,
// i.e. never for an imported module, so a strict copy (z.strictObject throughout) is written next to
// the package and imported instead. Which schema belongs to which route is read from the package's
// TypeScript `Paths` interface (requestBody and responses per path and method).

import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import * as z from "zod/mini";

const here = dirname(fileURLToPath(import.meta.url));
const build = join(here, "node_modules", "discord-api-spec", "build");

async function strictSchemas() {
  const source = readFileSync(join(build, "discord-api-spec.zod.js"), "utf8");
  const loose = "let zObject = z.object;";
  if (!source.includes(loose)) {
    throw new Error(`discord-api-spec's zod file no longer starts with ${JSON.stringify(loose)}; adapt validate.mjs`);
  }
  const dir = join(here, "node_modules", ".cache", "tablebot-apispec");
  mkdirSync(dir, { recursive: true });
  const file = join(dir, "strict.zod.mjs");
  // OpenAPI's `format: date-time` is RFC 3339, which allows an offset ("+00:00", as Discord writes
  // its timestamps); Zod's iso.datetime() takes only "Z" unless told otherwise.
  const strict = source.replace(loose, "let zObject = z.strictObject;").replaceAll("z.iso.datetime()", "z.iso.datetime({ offset: true })");
  // Written aside and renamed into place: two checks at once (the e2e units in two workers)
  // must never import a half-written copy.
  const aside = `${file}.${process.pid}`;
  writeFileSync(aside, strict);
  renameSync(aside, file);
  return import(pathToFileURL(file).href);
}

// ---- the Paths interface: path -> method -> {request, responses} as TypeScript type text ----

function readType(text, start) {
  // From `start` to the `;` that ends this member at nesting depth 0.
  let depth = 0;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (c === "{" || c === "(" || c === "[" || c === "<") depth++;
    else if (c === "}" || c === ")" || c === "]" || c === ">") depth--;
    else if (c === ";" && depth === 0) return [text.slice(start, i).trim(), i + 1];
  }
  throw new Error("unterminated type");
}

function readPaths() {
  const ts = readFileSync(join(build, "discord-api-spec.ts"), "utf8");
  const start = ts.indexOf("export interface Paths {");
  if (start < 0) throw new Error("no `export interface Paths` in discord-api-spec.ts; adapt validate.mjs");
  const end = ts.indexOf("\n}\n", start);
  const body = ts.slice(start, end);
  const paths = new Map();
  const pathRe = /^ {2}"([^"]+)": \{$/gm;
  const heads = [...body.matchAll(pathRe)];
  heads.forEach((m, k) => {
    const block = body.slice(m.index, k + 1 < heads.length ? heads[k + 1].index : body.length);
    const methods = {};
    const methodHeads = [...block.matchAll(/^ {4}(get|put|post|patch|delete): \{$/gm)];
    methodHeads.forEach((mm, j) => {
      const part = block.slice(mm.index, j + 1 < methodHeads.length ? methodHeads[j + 1].index : block.length);
      const entry = { request: undefined, responses: {} };
      const req = part.indexOf("requestBody?:");
      if (req >= 0) entry.request = readType(part, req + "requestBody?:".length)[0];
      const res = part.indexOf("responses: {");
      if (res >= 0) {
        const statusRe = /^ {8}"(\w+)":/gm;
        statusRe.lastIndex = res;
        let sm;
        while ((sm = statusRe.exec(part)) !== null) {
          const [type, next] = readType(part, sm.index + sm[0].length);
          entry.responses[sm[1]] = type;
          statusRe.lastIndex = next;
          if (/^\s*\};/.test(part.slice(next))) break; // end of responses
        }
      }
      methods[mm[1].toUpperCase()] = entry;
    });
    paths.set(m[1], methods);
  });
  return paths;
}

// ---- type text -> Zod schema ----

function splitTop(text, sep) {
  const parts = [];
  let depth = 0;
  let last = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if ("{([<".includes(c)) depth++;
    else if ("})]>".includes(c)) depth--;
    else if (c === sep && depth === 0) {
      parts.push(text.slice(last, i));
      last = i + 1;
    }
  }
  parts.push(text.slice(last));
  return parts.map((p) => p.trim()).filter((p) => p.length > 0);
}

function schemaFor(type, schemas) {
  const options = splitTop(type.replace(/\s+/g, " ").trim(), "|");
  let nullable = false;
  const built = [];
  for (const option of options) {
    if (option === "null") nullable = true;
    else if (option === "unknown") built.push(z.unknown());
    else if (option.endsWith("[]")) built.push(z.array(schemaFor(option.slice(0, -2), schemas)));
    else if (/^\w+$/.test(option)) {
      const schema = schemas[`${option}Schema`];
      if (!schema) throw new Error(`the spec names ${option}, which has no Zod schema`);
      built.push(schema);
    } else throw new Error(`an inline type the checker does not read: ${option.slice(0, 80)}`);
  }
  if (built.length === 0) return z.null();
  const one = built.length === 1 ? built[0] : z.union(built);
  return nullable ? z.nullable(one) : one;
}

// ---- matching a concrete route to the spec's template ----

function templates(paths) {
  return [...paths.keys()].map((path) => {
    const pattern = path.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{[^}]+\}/g, "[^/]+");
    return { path, re: new RegExp(`^${pattern}$`), params: (path.match(/\{/g) || []).length };
  });
}

function findTemplate(route, method, paths, list) {
  const hits = list.filter((t) => t.re.test(route) && paths.get(t.path)[method]);
  hits.sort((a, b) => a.params - b.params); // a literal segment (@original, @me) beats a parameter
  return hits[0];
}

// ---- readable issues ----

function describe(issues, path = []) {
  const out = [];
  for (const issue of issues) {
    const at = [...path, ...issue.path].join(".") || "(body)";
    if (issue.code === "invalid_union" && issue.errors?.length) {
      // The option the sender meant: one whose `type` tag matched, else the one that came closest.
      const tagged = issue.errors.filter((errs) => !errs.some((e) => e.path.length === 1 && e.path[0] === "type"));
      const pool = tagged.length ? tagged : issue.errors;
      const closest = pool.reduce((a, b) => (b.length < a.length ? b : a));
      out.push(...describe(closest, [...path, ...issue.path]));
    } else if (issue.code === "unrecognized_keys") {
      out.push(`${at}: unknown field(s) ${issue.keys.join(", ")}`);
    } else {
      const detail = [issue.expected && `expected ${issue.expected}`, issue.minimum !== undefined && `minimum ${issue.minimum}`, issue.maximum !== undefined && `maximum ${issue.maximum}`]
        .filter(Boolean)
        .join(", ");
      out.push(`${at}: ${issue.code}${detail ? ` (${detail})` : ""}`);
    }
  }
  return out;
}

function check(schema, value) {
  const result = z.safeParse(schema, value);
  return result.success ? [] : describe(result.error.issues);
}

// ---- main ----

const file = process.argv[2];
if (!file) {
  console.error("usage: node validate.mjs traffic.json");
  process.exit(2);
}
const traffic = JSON.parse(readFileSync(file, "utf8"));
const schemas = await strictSchemas();
const paths = readPaths();
const list = templates(paths);
const problems = new Map(); // problem text -> count
const firstIn = new Map(); // problem text -> the test (entry.test, if tagged) that first showed it
let current;
const note = (text) => {
  problems.set(text, (problems.get(text) || 0) + 1);
  if (!firstIn.has(text) && current?.test) firstIn.set(text, current.test);
};
let checked = 0;

// ---- gateway dispatches ----
//
// The spec has no gateway-event schemas, but most dispatches carry an object the REST API also
// returns, so each payload is checked against that object's schema, extended only by the fields
// Discord's gateway documentation lists for the event (strict, like the REST check: any other field
// fails). Events whose payload no published schema covers are shape-checked: a strict object with
// exactly the documented fields, the embedded objects that do have schemas checked against them.
//
//   CHANNEL_CREATE, CHANNEL_DELETE     GuildChannelResponseSchema
//   THREAD_CREATE                      ThreadResponseSchema + newly_created
//   THREAD_UPDATE                      ThreadResponseSchema
//   THREAD_DELETE                      ThreadResponseSchema reduced to id, guild_id, parent_id, type
//   MESSAGE_CREATE                     MessageResponseSchema + guild_id, member (partial member)
//   GUILD_CREATE                       GuildResponseSchema + joined_at, large, unavailable,
//                                      member_count, voice_states, members (GuildMemberResponse),
//                                      channels (GuildChannelResponse), threads (ThreadResponse),
//                                      presences, stage_instances, guild_scheduled_events,
//                                      soundboard_sounds
//   GUILD_DELETE                       shape only: an unavailable guild {id, unavailable?}
//   GUILD_MEMBERS_CHUNK                shape only; members against GuildMemberResponseSchema
//   READY                              shape only; user against UserPIIResponseSchema
//   INTERACTION_CREATE                 shape only (the spec has no incoming interaction); member
//                                      against GuildMemberResponseSchema + permissions, user
//                                      against UserResponseSchema, message against
//                                      MessageResponseSchema
//   RESUMED                            no payload to check
// Any other event is reported, so that a new one gets its mapping here.

function gatewaySchemas(s) {
  const snowflake = s.SnowflakeTypeSchema;
  const partialMember = z.partial(z.omit(s.GuildMemberResponseSchema, { user: true }));
  const interactionMember = z.extend(s.GuildMemberResponseSchema, { permissions: z.string() });
  const unavailableGuild = z.strictObject({ id: snowflake, unavailable: z.optional(z.boolean()) });
  const anyList = z.array(z.unknown());
  return {
    CHANNEL_CREATE: s.GuildChannelResponseSchema,
    CHANNEL_DELETE: s.GuildChannelResponseSchema,
    THREAD_CREATE: z.extend(s.ThreadResponseSchema, { newly_created: z.optional(z.boolean()) }),
    THREAD_UPDATE: s.ThreadResponseSchema,
    THREAD_DELETE: z.pick(s.ThreadResponseSchema, { id: true, guild_id: true, parent_id: true, type: true }),
    MESSAGE_CREATE: z.extend(s.MessageResponseSchema, {
      guild_id: z.optional(snowflake),
      member: z.optional(partialMember),
    }),
    GUILD_CREATE: z.extend(s.GuildResponseSchema, {
      joined_at: z.iso.datetime({ offset: true }),
      large: z.boolean(),
      unavailable: z.optional(z.boolean()),
      member_count: z.int(),
      voice_states: anyList,
      members: z.array(s.GuildMemberResponseSchema),
      channels: z.array(s.GuildChannelResponseSchema),
      threads: z.array(s.ThreadResponseSchema),
      presences: anyList,
      stage_instances: anyList,
      guild_scheduled_events: anyList,
      soundboard_sounds: anyList,
    }),
    GUILD_DELETE: unavailableGuild,
    GUILD_MEMBERS_CHUNK: z.strictObject({
      guild_id: snowflake,
      members: z.array(s.GuildMemberResponseSchema),
      chunk_index: z.int(),
      chunk_count: z.int(),
      not_found: z.optional(anyList),
      presences: z.optional(anyList),
      nonce: z.optional(z.nullable(z.string())),
    }),
    READY: z.strictObject({
      v: z.int(),
      user: s.UserPIIResponseSchema,
      guilds: z.array(unavailableGuild),
      session_id: z.string(),
      resume_gateway_url: z.string(),
      shard: z.optional(z.tuple([z.int(), z.int()])),
      application: z.strictObject({ id: snowflake, flags: z.int() }),
      private_channels: z.array(z.never()), // documented as an empty array for bots
    }),
    INTERACTION_CREATE: z.strictObject({
      id: snowflake,
      application_id: snowflake,
      type: z.int(),
      data: z.optional(z.unknown()),
      guild: z.optional(z.unknown()),
      guild_id: z.optional(snowflake),
      channel: z.optional(z.unknown()),
      channel_id: z.optional(snowflake),
      member: z.optional(interactionMember),
      user: z.optional(s.UserResponseSchema),
      token: z.string(),
      version: z.literal(1),
      message: z.optional(s.MessageResponseSchema),
      app_permissions: z.string(),
      locale: z.optional(z.string()),
      guild_locale: z.optional(z.string()),
      entitlements: z.array(z.unknown()),
      authorizing_integration_owners: z.record(z.string(), snowflake),
      context: z.optional(z.int()),
      attachment_size_limit: z.int(),
    }),
    RESUMED: z.unknown(),
  };
}

const gateway = gatewaySchemas(schemas);
let dispatches = 0;

for (const entry of traffic) {
  if (!("event" in entry)) continue;
  current = entry;
  dispatches++;
  const schema = gateway[entry.event];
  if (!schema) {
    note(`gateway ${entry.event}: no mapping to a schema in validate.mjs`);
    continue;
  }
  for (const issue of check(schema, entry.d)) note(`gateway ${entry.event} ${issue}`);
}

for (const entry of traffic) {
  if ("event" in entry) continue;
  current = entry;
  const { method, route, status } = entry;
  const template = findTemplate(route, method, paths, list);
  if (!template) {
    note(`${method} ${route.replace(/\d{15,}/g, "{id}")}: a route Discord's spec does not know`);
    continue;
  }
  const spec = paths.get(template.path)[method];
  const where = `${method} ${template.path}`;
  checked++;
  if ("request" in entry) {
    if (spec.request === undefined || spec.request === "undefined") {
      if (entry.request !== null && !(typeof entry.request === "object" && Object.keys(entry.request).length === 0)) {
        note(`${where} request: the spec takes no body`);
      }
    } else {
      try {
        for (const issue of check(schemaFor(spec.request, schemas), entry.request)) note(`${where} request ${issue}`);
      } catch (err) {
        note(`${where} request: ${err.message}`);
      }
    }
  }
  // Statuses 0/-1 are injected faults (no answer) and 5xx answers are not in the spec.
  if (!("response" in entry) || status <= 0 || status >= 500) continue;
  const type = spec.responses[String(status)] ?? (status >= 400 && status < 500 ? spec.responses["4XX"] : undefined);
  if (type === undefined) {
    note(`${where}: status ${status} is not among the spec's responses (${Object.keys(spec.responses).join(", ")})`);
    continue;
  }
  try {
    for (const issue of check(schemaFor(type, schemas), entry.response)) note(`${where} response ${status} ${issue}`);
  } catch (err) {
    note(`${where} response: ${err.message}`);
  }
}

for (const [text, count] of problems) {
  const seen = firstIn.has(text) ? `  [first in ${firstIn.get(text)}]` : "";
  console.log(`${text}${count > 1 ? `  (x${count})` : ""}${seen}`);
}
console.error(
  `checked ${checked} of ${traffic.length - dispatches} exchanges and ${dispatches} gateway dispatches against discord-api-spec; ${problems.size} distinct problems`,
);
process.exit(problems.size ? 1 : 0);
