// The main flow of a social app, only through the generated types and openapi-fetch: register, log in, edit the
// profile, upload a photo, follow, post with the photo, read the follower's home timeline, comment, like, read
// notifications and unread counts, send a direct message, create and join an activity, and one refusal. Each step
// asserts what a client relies on; the last line printed is a JSON result that TypeScriptClientFlowTest reads.
// `tsc --noEmit` (strict) checks every field used here against the document, so a field typed wrongly there fails
// the build before the flow runs.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { equal, kith, ok, present, unique, until, type Kith } from "./kith.js";

/** A registered user, its client (logged in) and what it logs in with. */
interface Member {
  id: number;
  username: string;
  password: string;
  api: Kith;
}

/**
 * A real 1x1 PNG: the server reads the type from the bytes, and its media pipeline decodes them (made-up bytes fail
 * it, and a failed media cannot be attached to a post).
 */
function png(): Uint8Array<ArrayBuffer> {
  const base64 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";
  return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
}

function assertId(id: number, what: string): void {
  assert.ok(Number.isSafeInteger(id) && id > 0, `${what} is a positive safe integer: ${id}`);
}

async function register(): Promise<Member> {
  const username = unique("ts");
  const password = `Sunny-${randomUUID()}`;
  const created = await ok(kith().POST("/api/v1/accounts", { body: { username, password } }), "register");
  assertId(created.user.id, "the new user's id");
  equal(created.user.username, username);
  equal(created.tokens.user_id, created.user.id);
  equal(created.tokens.token_type, "Bearer");
  return { id: created.user.id, username, password, api: kith(created.tokens.access_token) };
}

/** Logs in again by username: the new token pair is the member's client from now on. */
async function login(member: Member): Promise<Member> {
  const tokens = await ok(kith().POST("/api/v1/auth/login",
    { body: { login: member.username, password: member.password } }), "login");
  equal(tokens.user_id, member.id);
  assert.ok(tokens.expires_in > 0);
  return { ...member, api: kith(tokens.access_token) };
}

async function editProfile(member: Member, nickname: string): Promise<void> {
  const profile = await ok(member.api.PATCH("/api/v1/me",
    { body: { nickname, signature: "Generated clients, real flows." } }), "edit profile");
  equal(profile.id, member.id);
  equal(profile.nickname, nickname);
  const again = await ok(member.api.GET("/api/v1/me"), "read own profile");
  equal(again.signature, "Generated clients, real flows.");
}

async function uploadPhoto(member: Member): Promise<number> {
  const bytes = png();
  const media = await ok(member.api.POST("/api/v1/media", {
    body: new Blob([bytes]),
    bodySerializer: (body) => body,
    headers: { "Content-Type": "application/octet-stream" },
  }), "upload");
  assertId(media.id, "the media id");
  equal(media.kind, "image");
  equal(media.content_type, "image/png");
  equal(media.state, "ready");
  assert.ok(media.size > 0, `the re-encoded image's size: ${media.size}`);
  return media.id;
}

async function follow(follower: Member, author: Member): Promise<void> {
  const state = await ok(follower.api.PUT("/api/v1/following/{userId}",
    { params: { path: { userId: author.id } } }), "follow");
  equal(state.state, "following");
}

async function publish(author: Member, photo: number): Promise<number> {
  const post = await ok(author.api.POST("/api/v1/posts",
    { body: { text: "First light over the harbour", media: [photo], visibility: "public" } }), "publish");
  assertId(post.id, "the post id");
  equal(post.author.id, author.id);
  equal(present(post.media, "the post's media")[0]?.id, photo);
  equal(post.counts.likes, 0);
  return post.id;
}

/** Waits until the post reaches the follower's home timeline (fan-out runs after the reply). */
async function homeTimeline(follower: Member, author: Member, postId: number, photo: number): Promise<void> {
  const post = await until("the post in the follower's home timeline", async () => {
    const page = await ok(follower.api.GET("/api/v1/timelines/home", { params: { query: { limit: 20 } } }), "home");
    return page.items.find((item) => item.id === postId);
  });
  equal(post.author.id, author.id);
  equal(post.media?.[0]?.id, photo);
  equal(post.viewer.following, true);
}

async function comment(reader: Member, postId: number): Promise<number> {
  const made = await ok(reader.api.POST("/api/v1/posts/{postId}/comments",
    { params: { path: { postId } }, body: { text: "Beautiful!" } }), "comment");
  assertId(made.id, "the comment id");
  equal(made.post, postId);
  equal(made.author.id, reader.id);
  return made.id;
}

async function like(reader: Member, postId: number): Promise<void> {
  const state = await ok(reader.api.PUT("/api/v1/posts/{postId}/like", { params: { path: { postId } } }), "like");
  equal(state.liked, true);
  equal(state.like_count, 1);
}

/** The author is told of the follow, the comment and the like, and the unread counts say exactly that. */
async function notifications(author: Member, reader: Member, postId: number, commentId: number): Promise<void> {
  const items = await until("the follow, comment and like notifications", async () => {
    const page = await ok(author.api.GET("/api/v1/notifications", { params: { query: { limit: 50 } } }),
      "notifications");
    return page.items.length >= 3 ? page.items : undefined;
  });
  equal(items.length, 3, JSON.stringify(items));
  // paging by two: the first page's next_cursor comes back as cursor for the rest
  const first = await ok(author.api.GET("/api/v1/notifications", { params: { query: { limit: 2 } } }), "page 1");
  equal(first.items.map((n) => n.id).join(), items.slice(0, 2).map((n) => n.id).join());
  const cursor = present(first.next_cursor, "the first page's next_cursor");
  const rest = await ok(author.api.GET("/api/v1/notifications", { params: { query: { limit: 2, cursor } } }),
    "page 2");
  equal(rest.items.map((n) => n.id).join(), items.slice(2).map((n) => n.id).join());
  const ofType = (type: string) => present(items.find((n) => n.type === type), `the ${type} notification`);
  equal(ofType("follower").from_user, reader.id);
  equal(ofType("comment").comment, commentId);
  equal(ofType("comment").post, postId);
  equal(ofType("like").post, postId);
  equal(ofType("like").actor?.id, reader.id);
  assert.ok(items.every((n) => n.unread && n.to_user === author.id));
  const counts = await until("the unread counts", async () => {
    const read = await ok(author.api.GET("/api/v1/notifications/unread-counts"), "unread counts");
    return read.total === 3 ? read : undefined;
  });
  equal(counts.by_type["follower"], 1);
  equal(counts.by_type["comment"], 1);
  equal(counts.by_type["like"], 1);
  equal(counts.by_type["message"], 0);
}

/** A direct message is stored once (a retry with its client_id answers it again) and read back in the history. */
async function directMessage(from: Member, to: Member): Promise<void> {
  const clientId = randomUUID();
  const send = () => from.api.POST("/api/v1/direct/{userId}/messages",
    { params: { path: { userId: to.id } }, body: { client_id: clientId, text: "See you at the mill?" } });
  const sent = await ok(send(), "direct message");
  equal(sent.duplicate, false);
  assertId(sent.message.id, "the message id");
  equal(sent.message.sender, from.id);
  equal(sent.message.to, to.id);
  equal(sent.message.seq, 1);
  const retried = await ok(send(), "direct message retry");
  equal(retried.duplicate, true);
  equal(retried.message.id, sent.message.id);
  const conversation = await ok(to.api.GET("/api/v1/direct/{userId}/conversation",
    { params: { path: { userId: from.id } } }), "conversation");
  equal(conversation.id, sent.message.conversation);
  const history = await ok(to.api.GET("/api/v1/conversations/{conversationId}/messages",
    { params: { path: { conversationId: conversation.id } } }), "history");
  equal(history.items.length, 1);
  equal(history.items[0]?.id, sent.message.id);
  equal(history.items[0]?.text, "See you at the mill?");
  equal(history.last_seq, 1);
}

/** The organiser creates an activity a day ahead; the other member joins and takes the one place taken. */
async function activity(organiser: Member, joiner: Member): Promise<number> {
  const start = Date.now() + 24 * 3_600_000;
  const created = await ok(organiser.api.POST("/api/v1/activities", {
    body: { title: "Harbour walk", start, end: start + 2 * 3_600_000, place: { name: "The old mill" }, capacity: 10 },
  }), "create activity");
  assertId(created.id, "the activity id");
  equal(created.organiser.id, organiser.id);
  equal(created.start, start);
  equal(created.viewer.status, "organiser");
  equal(created.participant_count, 0);
  const joined = await ok(joiner.api.PUT("/api/v1/activities/{activityId}/participation",
    { params: { path: { activityId: created.id } } }), "join");
  equal(joined.activity, created.id);
  equal(joined.status, "joined");
  equal(joined.participant_count, 1);
  return created.id;
}

/** A wrong password is 401 with the problem code a client branches on. */
async function wrongPassword(member: Member): Promise<string> {
  const { error, response } = await kith().POST("/api/v1/auth/login",
    { body: { login: member.username, password: `${member.password}x` } });
  if (error === undefined) {
    throw new Error("a wrong password logged in");
  }
  equal(response.status, 401);
  assert.match(response.headers.get("Content-Type") ?? "", /^application\/problem\+json/);
  // the error is the document's Problem: its code and status are typed
  const status: number = error.status;
  equal(status, 401);
  equal(error.code, "invalid_credentials");
  return error.code;
}

async function main(): Promise<void> {
  const alice = await register();
  const bob = await login(await register());
  await editProfile(alice, "Alice of the harbour");
  const photo = await uploadPhoto(alice);
  await follow(bob, alice);
  const postId = await publish(alice, photo);
  await homeTimeline(bob, alice, postId, photo);
  const commentId = await comment(bob, postId);
  await like(bob, postId);
  await notifications(alice, bob, postId, commentId);
  await directMessage(bob, alice);
  const activityId = await activity(alice, bob);
  const refusal = await wrongPassword(bob);
  console.log(JSON.stringify({ ok: true, alice: alice.id, bob: bob.id, post: postId, activity: activityId, refusal }));
}

main().catch((e: unknown) => {
  console.error(e);
  console.log(JSON.stringify({ ok: false, error: String(e) }));
  process.exit(1);
});
