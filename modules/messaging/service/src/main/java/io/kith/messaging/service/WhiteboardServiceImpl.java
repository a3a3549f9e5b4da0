package io.kith.messaging.service;

import io.kith.messaging.api.MessagingInternal;
import io.kith.messaging.api.WhiteboardErrors;
import io.kith.messaging.api.WhiteboardInternal;
import io.kith.messaging.api.WhiteboardService;
import io.kith.messaging.api.Whiteboards;
import io.kith.platform.Platform;
import io.kith.platform.bus.Addresses;
import io.kith.platform.error.Failures;
import io.kith.platform.error.KithErrors;
import io.kith.platform.limit.RateLimiter;
import io.kith.platform.page.Page;
import io.kith.platform.page.PageRequest;
import io.kith.relations.api.RelationsInternal;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Whiteboards. Who is a member is decided on every call, from the board document for an ad-hoc board and by
 * {@link MessagingInternal#mayListen} on the group's room ({@code g<group>}) for a group board, so a group board
 * follows the group's membership with no copy of it. A stroke is validated, stored in Redis with the next sequence
 * of its board (one script: sequence, entry, trim, expiry), then relayed on the board's room and answered.
 *
 * <p>Losing a board (removed, the board deleted) is published on {@value Addresses#ROOMS_REVOKED} before the answer,
 * so the bridges stop delivering the board's room to that user at once. A group member who loses the group (the
 * groups code publishes {@code g<group>} there) loses the group's boards' rooms too: {@link #groupRoomRevoked}
 * repeats the notice for each board of the group.
 *
 * <p>Why one file of about 500 lines, in this package: a whiteboard is one feature whose boards, strokes and members
 * share the same checks ({@code visible}, {@code owned}, membership), and the whiteboard classes stay in
 * {@code io.kith.messaging.service} rather than a {@code whiteboard} sub-package because the verticle wires them
 * and the tests read their store constants and Redis keys package-privately: a sub-package would make five classes,
 * their constructors and those constants public for that alone.
 */
final class WhiteboardServiceImpl implements WhiteboardService {

  private static final Logger LOG = LoggerFactory.getLogger(WhiteboardServiceImpl.class);
  static final String GROUP = "group";
  static final String ADHOC = "adhoc";
  private static final Set<String> CREATE_FIELDS = Set.of("title", "group", "members");
  private static final Pattern BOARD_ROOM = Pattern.compile("b[1-9][0-9]{0,15}");
  private static final Pattern GROUP_ROOM = Pattern.compile("g[1-9][0-9]{0,15}");
  /** Attempts of a member change that meets concurrent ones before it answers {@code conflict}. */
  private static final int MEMBER_CHANGE_ATTEMPTS = 5;

  /** Boards of a dissolved group deleted per round. */
  static final int DISSOLVE_PAGE = 100;

  private final Platform platform;
  private final WhiteboardSettings settings;
  private final WhiteboardStore boards;
  private final WhiteboardStrokes strokes;
  private final MessagingInternal messaging;
  private final RelationsInternal relations;
  private final RateLimiter limiter;

  WhiteboardServiceImpl(Platform platform, WhiteboardSettings settings, WhiteboardStore boards,
                        WhiteboardStrokes strokes, MessagingInternal messaging, RelationsInternal relations) {
    this.platform = platform;
    this.settings = settings;
    this.boards = boards;
    this.strokes = strokes;
    this.messaging = messaging;
    this.relations = relations;
    this.limiter = new RateLimiter(platform.redis());
  }

  // ------------------------------------------------------------------ boards

  @Override
  public Future<JsonObject> create(long actor, JsonObject spec) {
    return Failures.guard(() -> {
      if (spec == null) {
        return Failures.failField(KithErrors.VALIDATION_FAILED, "title", "a board needs a title");
      }
      for (String field : spec.fieldNames()) {
        if (!CREATE_FIELDS.contains(field)) {
          return Failures.failField(KithErrors.VALIDATION_FAILED, field,
              "unknown member " + field + "; a board has title, group, members");
        }
      }
      String title = WhiteboardInput.title(spec.getValue("title"));
      Long group = spec.getValue("group") == null ? null : WhiteboardInput.id(spec.getValue("group"), "group");
      if (group != null && spec.getValue("members") != null) {
        return Failures.failField(WhiteboardErrors.GROUP_BOARD_MEMBERS, "members",
            "a group board's members are the group's members: give group or members, not both");
      }
      List<Long> others = spec.getValue("members") == null ? List.of()
          : WhiteboardInput.ids(spec.getValue("members"), "members");
      others = others.stream().filter(u -> u != actor).toList();
      if (others.size() > settings.members()) {
        return Failures.failField(KithErrors.VALIDATION_FAILED, "members",
            "a board has at most " + settings.members() + " members besides its owner");
      }
      List<Long> members = others;
      // membership first: a non-member learns nothing of the group's boards (not even that it is full)
      Future<Void> allowed = group != null
          ? messaging.mayListen(actor, "g" + group).compose(member -> member ? Future.succeededFuture()
              : Failures.failField(WhiteboardErrors.GROUP_NOT_FOUND, "group", "no such group"))
          : friends(actor, members);
      return allowed.compose(q -> quota(actor, group, false)).compose(q -> insert(actor, title, group, members));
    });
  }

  /** Stores a new board, counted again once inserted; its members are told. */
  private Future<JsonObject> insert(long actor, String title, Long group, List<Long> members) {
    long now = System.currentTimeMillis();
    JsonObject doc = new JsonObject().put("_id", platform.ids().next()).put("owner", actor)
        .put("title", title).put("created", now).put("v", 0L);
    if (group != null) {
      doc.put("kind", GROUP).put("group", group);
    } else {
      JsonArray all = new JsonArray().add(actor);
      members.forEach(all::add);
      doc.put("kind", ADHOC).put("members", all);
    }
    // counted again once inserted: of racing creates past a limit, those that see it exceeded undo theirs,
    // so the limits hold exactly (a race may refuse one that would have fit: try again)
    return boards.insert(doc).compose(x -> quota(actor, group, true).recover(e ->
        boards.delete(doc.getLong("_id"), actor).otherwise(d -> null).compose(d -> Future.failedFuture(e))))
        .map(x -> {
          JsonObject view = view(doc);
          members.forEach(m -> tell(m, added(view)));
          return view;
        });
  }

  /**
   * Fails unless the owner may own one more board and the group (when given) may have one more; once the new board
   * is inserted ({@code inserted}, so it is counted), fails when either is past its limit.
   */
  private Future<Void> quota(long owner, Long group, boolean inserted) {
    long mine = inserted ? 1 : 0;
    Future<Long> owned = boards.countOwned(owner);
    Future<Long> ofGroup = group == null ? Future.succeededFuture(0L) : boards.countGroup(group);
    return Future.all(owned, ofGroup).compose(v -> {
      if (owned.result() - mine >= settings.boardsPerUser()) {
        return Failures.fail(WhiteboardErrors.BOARD_LIMIT, "you own " + (owned.result() - mine)
            + " boards, the most one may own; delete one first");
      }
      if (ofGroup.result() - mine >= settings.boardsPerGroup()) {
        return Failures.failField(WhiteboardErrors.GROUP_BOARD_LIMIT, "group", "the group has "
            + (ofGroup.result() - mine) + " boards, the most a group may have; delete one first");
      }
      return Future.succeededFuture();
    });
  }

  @Override
  public Future<Page> boards(long actor, JsonObject query, PageRequest page) {
    return PageQuery.items(boards(actor, PageQuery.paged(query, page, "before", true)));
  }

  private Future<JsonObject> boards(long actor, JsonObject query) {
    return Failures.guard(() -> {
      JsonObject q = query == null ? new JsonObject() : query;
      int limit = GroupInput.limit(q, "limit", 20, 100);
      Long before = q.getValue("before") == null ? null : WhiteboardInput.id(q.getValue("before"), "before");
      Long group = q.getValue("group") == null ? null : WhiteboardInput.id(q.getValue("group"), "group");
      Future<List<JsonObject>> page = group == null
          ? boards.ofMember(actor, before, limit + 1)
          : messaging.mayListen(actor, "g" + group).compose(member -> member
              ? boards.ofGroup(group, before, limit + 1)
              : Failures.failField(WhiteboardErrors.GROUP_NOT_FOUND, "group", "no such group"));
      return page.map(docs -> {
        boolean more = docs.size() > limit;
        List<JsonObject> items = more ? docs.subList(0, limit) : docs;
        JsonArray out = new JsonArray();
        items.forEach(d -> out.add(view(d)));
        return new JsonObject().put("items", out)
            .put("next", more ? items.get(items.size() - 1).getLong("_id") : null);
      });
    });
  }

  @Override
  public Future<JsonObject> board(long actor, long boardId) {
    return visible(actor, boardId).map(WhiteboardServiceImpl::view);
  }

  // ------------------------------------------------------------------ strokes

  @Override
  public Future<Page> strokes(long actor, long boardId, PageRequest page) {
    return PageQuery.items(strokes(actor, boardId, PageQuery.paged(null, page, "after_seq", true)));
  }

  private Future<JsonObject> strokes(long actor, long boardId, JsonObject query) {
    return Failures.guard(() -> {
      JsonObject q = query == null ? new JsonObject() : query;
      int limit = GroupInput.limit(q, "limit", 100, 200);
      Object rawAfter = q.getValue("after_seq");
      if (rawAfter != null && (!(rawAfter instanceof Number) || ((Number) rawAfter).longValue() < 0)) {
        return Failures.failField(KithErrors.VALIDATION_FAILED, "after_seq",
            "after_seq must be a sequence number (0 or more)");
      }
      Long after = rawAfter == null ? null : ((Number) rawAfter).longValue();
      return visible(actor, boardId).compose(doc -> strokes.read(boardId, after, limit)).map(page ->
          new JsonObject().put("board", boardId).put("items", new JsonArray(new ArrayList<>(page.items())))
              .put("last_seq", page.lastSeq()).put("reset", page.reset()));
    });
  }

  @Override
  public Future<JsonObject> draw(long actor, long boardId, JsonObject stroke) {
    return Failures.guard(() -> {
      JsonObject normalized = WhiteboardStroke.normalize(stroke);
      return append(actor, boardId, new JsonObject().put("kind", Whiteboards.PUSH_STROKE).put("stroke", normalized));
    });
  }

  @Override
  public Future<JsonObject> clear(long actor, long boardId) {
    return append(actor, boardId, new JsonObject().put("kind", Whiteboards.PUSH_CLEAR));
  }

  /**
   * Stores an entry ({@code {kind, stroke?}}) on a board of the actor, relays it on the board's room and answers
   * {@code {board, seq, by, at}}.
   */
  private Future<JsonObject> append(long actor, long boardId, JsonObject entry) {
    Future<JsonObject> board = visible(actor, boardId);
    Future<RateLimiter.Window> hits = limiter.hit("rl:messaging:board:" + actor, 1_000L);
    return Future.all(board, hits).compose(v -> {
      RateLimiter.Window window = hits.result();
      if (window.count() > settings.strokesPerSecond()) {
        return Future.failedFuture(RateLimiter.refusal("too many strokes; at most " + settings.strokesPerSecond()
            + " per second", window.retryAfterSeconds()));
      }
      boolean clear = Whiteboards.PUSH_CLEAR.equals(entry.getString("kind"));
      long at = System.currentTimeMillis();
      // member order matters: the stored entry reads {seq, kind, ...}, which the read script relies on for clears
      JsonObject stored = new JsonObject().put("kind", entry.getString("kind")).put("by", actor).put("at", at);
      if (!clear) {
        stored.put("stroke", entry.getJsonObject("stroke"));
      }
      return strokes.append(boardId, stored, clear, board.result().getLong("created"), settings.bytes())
          .compose(seq -> relay(actor, boardId, stored, seq, clear, at));
    });
  }

  /** A stored entry: relayed on the board's room, a clear remembered on the document, then answered. */
  private Future<JsonObject> relay(long actor, long boardId, JsonObject stored, long seq, boolean clear, long at) {
    JsonObject push = new JsonObject().put("kind", stored.getString("kind")).put("board", boardId)
        .put("seq", seq).put("by", actor).put("at", at);
    if (!clear) {
      push.put("stroke", stored.getJsonObject("stroke"));
    }
    platform.vertx().eventBus().publish(Addresses.room(Whiteboards.room(boardId)), push);
    JsonObject answer = new JsonObject().put("board", boardId).put("seq", seq).put("by", actor).put("at", at);
    if (!clear) {
      return Future.succeededFuture(answer);
    }
    // the clear is the board's state (Redis); the document only remembers when, for the board view
    return boards.cleared(boardId, at, actor).otherwise(e -> {
      LOG.warn("Board {} was cleared but its document could not record it: {}", boardId, e.getMessage());
      return null;
    }).map(x -> answer);
  }

  // ------------------------------------------------------------------ members

  @Override
  public Future<JsonObject> addMembers(long actor, long boardId, List<Long> users) {
    return Failures.guard(() -> {
      if (users == null || users.isEmpty() || users.size() > settings.members()) {
        return Failures.failField(KithErrors.VALIDATION_FAILED, "users",
            "users must list 1 to " + settings.members() + " user ids");
      }
      for (Long u : users) {
        if (u == null || u <= 0) {
          return Failures.failField(KithErrors.VALIDATION_FAILED, "users", "users must be user ids");
        }
      }
      return owned(actor, boardId).compose(doc -> addMembers(actor, doc, new LinkedHashSet<>(users), 1));
    });
  }

  private Future<JsonObject> addMembers(long actor, JsonObject doc, Set<Long> users, int attempt) {
    List<Long> members = members(doc);
    List<Long> added = users.stream().filter(u -> !members.contains(u)).toList();
    if (added.isEmpty()) {
      return Future.succeededFuture(view(doc));
    }
    if (members.size() - 1 + added.size() > settings.members()) {
      return Failures.fail(WhiteboardErrors.BOARD_FULL,
          "a board has at most " + settings.members() + " members besides its owner");
    }
    long boardId = doc.getLong("_id");
    List<Long> after = new ArrayList<>(members);
    after.addAll(added);
    return friends(actor, added)
        .compose(v -> boards.replaceMembers(boardId, doc.getLong("v", 0L), after))
        .compose(replaced -> {
          if (replaced) {
            JsonObject now = doc.copy().put("members", new JsonArray(new ArrayList<>(after)))
                .put("v", doc.getLong("v", 0L) + 1);
            platform.vertx().eventBus().publish(Addresses.room(Whiteboards.room(boardId)), membersPush(now));
            JsonObject view = view(now);
            added.forEach(u -> tell(u, added(view)));
            return Future.succeededFuture(view);
          }
          if (attempt >= MEMBER_CHANGE_ATTEMPTS) {
            return Failures.fail(KithErrors.CONFLICT, "the board's members are changing; try again");
          }
          return owned(actor, boardId).compose(fresh -> addMembers(actor, fresh, users, attempt + 1));
        });
  }

  @Override
  public Future<Void> removeMember(long actor, long boardId, long userId) {
    return visible(actor, boardId).compose(doc -> {
      if (!ADHOC.equals(doc.getString("kind"))) {
        return Failures.fail(WhiteboardErrors.GROUP_BOARD_MEMBERS,
            "a group board's members are the group's members");
      }
      long owner = doc.getLong("owner");
      if (actor != owner && userId != actor) {
        return Failures.fail(WhiteboardErrors.NOT_BOARD_OWNER, "only the board's owner may remove others");
      }
      if (userId == owner) {
        return Failures.fail(WhiteboardErrors.OWNER_CANNOT_LEAVE, "the owner cannot leave the board; delete it");
      }
      return boards.pullMember(boardId, userId).map(after -> {
        if (after != null) {
          revoke(boardId, List.of(userId));
          tell(userId, new JsonObject().put("kind", Whiteboards.PUSH_BOARD_REMOVED).put("board", boardId));
          platform.vertx().eventBus().publish(Addresses.room(Whiteboards.room(boardId)), membersPush(after));
        }
        return null;
      });
    });
  }

  @Override
  public Future<Void> delete(long actor, long boardId) {
    // the owner may always delete their own board, even a group board of a group they left, were removed from or
    // that was dissolved (it counts toward their boards); anyone else must see the board to be told 403
    Future<JsonObject> found = boardId <= 0 ? Future.succeededFuture() : boards.byId(boardId);
    return found.compose(own -> own != null && own.getLong("owner") == actor ? Future.succeededFuture(own)
        : visible(actor, boardId)).compose(doc -> {
      if (doc.getLong("owner") != actor) {
        return Failures.fail(WhiteboardErrors.NOT_BOARD_OWNER, "only the board's owner may delete it");
      }
      return boards.delete(boardId, actor).compose(deleted -> deleted ? dropDeleted(doc) : Future.succeededFuture());
    });
  }

  /** A board just deleted (not meanwhile by another request of the owner): its room is told, its strokes dropped. */
  private Future<Void> dropDeleted(JsonObject doc) {
    long boardId = doc.getLong("_id");
    platform.vertx().eventBus().publish(Addresses.room(Whiteboards.room(boardId)),
        new JsonObject().put("kind", Whiteboards.PUSH_DELETED).put("board", boardId));
    if (ADHOC.equals(doc.getString("kind"))) {
      revoke(boardId, members(doc));
    }
    // a group board's room has no member list to revoke; its id is never reused, so nothing is sent there again
    return strokes.drop(boardId).otherwise(e -> {
      LOG.warn("Board {} is deleted but its strokes could not be dropped (they expire): {}", boardId,
          e.getMessage());
      return null;
    });
  }

  /**
   * A group was dissolved on this node: its boards go (records and strokes), each announced deleted on its room (its
   * members lost the group's room already). Best effort: boards a failure leaves behind stay deletable by their owners.
   */
  Future<Void> groupDissolved(long group) {
    return boards.idsOfGroup(group, DISSOLVE_PAGE).compose(ids -> ids.isEmpty() ? Future.succeededFuture()
        : boards.deleteOfGroup(group, ids).compose(removed -> {
          List<Future<Void>> drops = new ArrayList<>();
          for (long id : ids) {
            platform.vertx().eventBus().publish(Addresses.room(Whiteboards.room(id)),
                new JsonObject().put("kind", Whiteboards.PUSH_DELETED).put("board", id));
            drops.add(strokes.drop(id).otherwiseEmpty());
          }
          return Future.join(drops).transform(v -> removed > 0 && ids.size() == DISSOLVE_PAGE
              ? groupDissolved(group) : Future.succeededFuture());
        }))
        .onFailure(e -> LOG.warn("Group {} is dissolved but its boards could not all be deleted: {}", group,
            e.getMessage()));
  }

  // ------------------------------------------------------------------ rooms

  /** The internal operations ({@link WhiteboardInternal}) over this service, for the verticle to bind. */
  WhiteboardInternal internal() {
    return new WhiteboardInternalImpl(this);
  }

  /** See {@link WhiteboardInternal#mayListen}. */
  Future<Boolean> mayListen(long userId, String roomId) {
    if (roomId == null || !BOARD_ROOM.matcher(roomId).matches()) {
      return Future.succeededFuture(false);
    }
    long boardId = Long.parseLong(roomId.substring(1));
    return boards.byId(boardId).compose(doc -> doc == null ? Future.succeededFuture(false) : isMember(userId, doc));
  }

  /**
   * A room revocation notice: when users lose a group ({@code g<group>}), they lose each of its boards' rooms too.
   * Every node running messaging repeats it (the notice is published cluster-wide); revoking twice does no harm.
   */
  void groupRoomRevoked(JsonObject notice) {
    String room = notice == null ? null : notice.getString("room");
    JsonArray users = notice == null ? null : notice.getJsonArray("users");
    if (room == null || users == null || users.isEmpty() || !GROUP_ROOM.matcher(room).matches()) {
      return;
    }
    List<Long> lost = new ArrayList<>();
    users.forEach(u -> {
      if (u instanceof Number) {
        lost.add(((Number) u).longValue());
      }
    });
    // a group has at most boardsPerGroup boards (exactly: see create), so this is bounded
    boards.idsOfGroup(Long.parseLong(room.substring(1)), settings.boardsPerGroup())
        .onSuccess(ids -> ids.forEach(id -> revoke(id, lost)))
        .onFailure(e -> LOG.warn("Cannot revoke the boards of group room {}: {}", room, e.getMessage()));
  }

  // ------------------------------------------------------------------ helpers

  /** The board if the actor is a member, else {@code board_not_found}. */
  private Future<JsonObject> visible(long actor, long boardId) {
    if (boardId <= 0) {
      return Failures.fail(WhiteboardErrors.BOARD_NOT_FOUND, "no such board");
    }
    return boards.byId(boardId).compose(doc -> doc == null
        ? Failures.fail(WhiteboardErrors.BOARD_NOT_FOUND, "no such board")
        : isMember(actor, doc).compose(member -> member ? Future.succeededFuture(doc)
            : Failures.fail(WhiteboardErrors.BOARD_NOT_FOUND, "no such board")));
  }

  /** An ad-hoc board of the actor's own, for a change of its members. */
  private Future<JsonObject> owned(long actor, long boardId) {
    return visible(actor, boardId).compose(doc -> {
      if (!ADHOC.equals(doc.getString("kind"))) {
        return Failures.fail(WhiteboardErrors.GROUP_BOARD_MEMBERS,
            "a group board's members are the group's members");
      }
      if (doc.getLong("owner") != actor) {
        return Failures.fail(WhiteboardErrors.NOT_BOARD_OWNER, "only the board's owner may add members");
      }
      return Future.succeededFuture(doc);
    });
  }

  private Future<Boolean> isMember(long user, JsonObject doc) {
    if (GROUP.equals(doc.getString("kind"))) {
      return messaging.mayListen(user, "g" + doc.getLong("group"));
    }
    return Future.succeededFuture(members(doc).contains(user));
  }

  /** Fails with {@code board_member_not_friend} (listing them) unless every user is a friend of {@code owner}. */
  private Future<Void> friends(long owner, List<Long> users) {
    if (users.isEmpty()) {
      return Future.succeededFuture();
    }
    return relations.ties(owner, users).compose(ties -> {
      JsonArray strangers = new JsonArray();
      for (Long u : users) {
        JsonObject tie = ties.getJsonObject(Long.toString(u));
        if (tie == null || !tie.getBoolean("friend", false)) {
          strangers.add(u);
        }
      }
      return strangers.isEmpty() ? Future.succeededFuture()
          : Future.failedFuture(Failures.withExtra(WhiteboardErrors.MEMBER_NOT_FRIEND,
              "only your friends can be members of your board", new JsonObject().put("users", strangers)));
    });
  }

  private void revoke(long boardId, List<Long> users) {
    if (!users.isEmpty()) {
      platform.vertx().eventBus().publish(Addresses.ROOMS_REVOKED,
          new JsonObject().put("room", Whiteboards.room(boardId)).put("users", new JsonArray(new ArrayList<>(users))));
    }
  }

  /** Publishes to a user's own address (every connection of theirs, on any node). */
  private void tell(long user, JsonObject push) {
    platform.vertx().eventBus().publish(Addresses.user(user), push);
  }

  private static JsonObject added(JsonObject view) {
    return new JsonObject().put("kind", Whiteboards.PUSH_BOARD_ADDED).put("board", view);
  }

  private static JsonObject membersPush(JsonObject doc) {
    return new JsonObject().put("kind", Whiteboards.PUSH_MEMBERS).put("board", doc.getLong("_id"))
        .put("members", new JsonArray(new ArrayList<>(members(doc))));
  }

  static List<Long> members(JsonObject doc) {
    List<Long> out = new ArrayList<>();
    doc.getJsonArray("members", new JsonArray()).forEach(m -> out.add(((Number) m).longValue()));
    return out;
  }

  static JsonObject view(JsonObject doc) {
    JsonObject view = new JsonObject().put("id", doc.getLong("_id")).put("kind", doc.getString("kind"));
    if (GROUP.equals(doc.getString("kind"))) {
      view.put("group", doc.getLong("group"));
    }
    view.put("owner", doc.getLong("owner"));
    if (ADHOC.equals(doc.getString("kind"))) {
      view.put("members", new JsonArray(new ArrayList<>(members(doc))));
    }
    view.put("title", doc.getString("title")).put("created", doc.getLong("created"));
    if (doc.containsKey("cleared_at")) {
      view.put("cleared_at", doc.getLong("cleared_at")).put("cleared_by", doc.getLong("cleared_by"));
    }
    return view;
  }
}
