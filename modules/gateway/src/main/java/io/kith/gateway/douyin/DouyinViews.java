package io.kith.gateway.douyin;

import io.kith.accounts.api.AccountsService;
import io.kith.feeds.api.FeedsService;
import io.kith.relations.api.RelationsService;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Kith's answers in douyin's shapes: the user object (profile, follow counts, {@code is_follow} and the author
 * counters, fetched per page in batches: one summaries call, one relationships call, one author-counts call and one
 * follow-count read per user of the page) and the video object (a post with a video). URLs are absolute, made from
 * {@code base} (the configured public URL, or the request's own scheme and host).
 */
final class DouyinViews {

  /** The cover shown until the media pipeline has taken a frame of the video (class-path file). */
  static final String DEFAULT_COVER_FILE = "douyin/cover.png";
  /** Name of the media variant the pipeline makes of a video's frame. */
  static final String COVER_VARIANT = "cover";
  /** Path of a video's cover: the pipeline's frame once made, the default cover until then. */
  private static final String COVER_PATH = "/douyin/cover/";
  private static final String MEDIA_PATH = "/api/v1/media/";

  private final AccountsService accounts;
  private final RelationsService relations;
  private final FeedsService feeds;

  DouyinViews(AccountsService accounts, RelationsService relations, FeedsService feeds) {
    this.accounts = accounts;
    this.relations = relations;
    this.feeds = feeds;
  }

  /**
   * The douyin user objects of {@code ids} as {@code viewer} sees them, keyed by id as a string; users the viewer may
   * not see (unknown, or in a block) are absent.
   */
  Future<JsonObject> users(long viewer, List<Long> ids, String base) {
    Set<Long> unique = new LinkedHashSet<>(ids);
    if (unique.isEmpty()) {
      return Future.succeededFuture(new JsonObject());
    }
    List<Long> list = new ArrayList<>(unique);
    Future<JsonObject> summaries = accounts.summaries(viewer, list);
    Future<JsonObject> ties = viewer == 0 ? Future.succeededFuture(new JsonObject())
        : relations.relationships(viewer, list);
    Future<JsonObject> authors = feeds.authorCounts(viewer, list);
    List<Future<JsonObject>> follows = new ArrayList<>();
    // a user the viewer may not see has no counts to show: absent from the page rather than failing it
    list.forEach(id -> follows.add(relations.countsFor(viewer, id).otherwise(new JsonObject())));
    return Future.all(summaries, ties, authors, Future.all(follows)).map(v -> {
      JsonObject out = new JsonObject();
      for (int i = 0; i < list.size(); i++) {
        String key = Long.toString(list.get(i));
        JsonObject summary = summaries.result().getJsonObject(key);
        if (summary != null) {
          out.put(key, user(summary, ties.result().getJsonObject(key, new JsonObject()),
              follows.get(i).result(), authors.result().getJsonObject(key, new JsonObject()), base));
        }
      }
      return out;
    });
  }

  /** One user object from a summary (lists carry no signature: summaries have none). */
  private static JsonObject user(JsonObject profile, JsonObject tie, JsonObject follows, JsonObject authored,
                                 String base) {
    String nickname = profile.getString("nickname");
    return new JsonObject()
        .put("id", profile.getLong("id"))
        .put("name", nickname == null || nickname.isBlank() ? profile.getString("username") : nickname)
        .put("follow_count", follows.getLong("following_count", 0L))
        .put("follower_count", follows.getLong("follower_count", 0L))
        .put("is_follow", tie.getBoolean("following", false))
        .put("avatar", absolute(base, profile.getString("photo_url")))
        .put("background_image", "")
        .put("signature", profile.getString("signature", ""))
        .put("total_favorited", authored.getLong("likes_received", 0L))
        .put("work_count", authored.getLong("works", 0L))
        .put("favorite_count", authored.getLong("likes_given", 0L));
  }

  /** A user object built on a whole profile (the user route), with its signature. */
  Future<JsonObject> user(long viewer, JsonObject profile, String base) {
    long id = profile.getLong("id");
    return users(viewer, List.of(id), base).map(found -> {
      JsonObject user = found.getJsonObject(Long.toString(id));
      return user == null ? null : user.put("signature", profile.getString("signature", ""))
          .put("avatar", absolute(base, profile.getString("photo_url")));
    });
  }

  /** The posts of a page that carry a video, as douyin videos (with their authors), in the page's order. */
  Future<JsonArray> videos(long viewer, JsonArray posts, String base) {
    List<JsonObject> withVideo = new ArrayList<>();
    posts.forEach(p -> {
      JsonObject post = (JsonObject) p;
      if (videoOf(post) != null) {
        withVideo.add(post);
      }
    });
    List<Long> authors = withVideo.stream().map(p -> p.getJsonObject("author").getLong("id")).toList();
    return users(viewer, authors, base).map(users -> {
      JsonArray out = new JsonArray();
      for (JsonObject post : withVideo) {
        JsonObject author = users.getJsonObject(Long.toString(post.getJsonObject("author").getLong("id")));
        if (author != null) {
          out.add(video(post, author, base));
        }
      }
      return out;
    });
  }

  private static JsonObject video(JsonObject post, JsonObject author, String base) {
    JsonObject counts = post.getJsonObject("counts", new JsonObject());
    JsonObject viewer = post.getJsonObject("viewer", new JsonObject());
    JsonObject cover = null;
    for (Object m : post.getJsonArray("media", new JsonArray())) {
      if ("image".equals(((JsonObject) m).getString("kind"))) {
        cover = (JsonObject) m;
      }
    }
    return new JsonObject()
        .put("id", post.getLong("id"))
        .put("author", author)
        .put("play_url", base + MEDIA_PATH + videoOf(post).getLong("id"))
        .put("cover_url", base + (cover == null ? COVER_PATH + videoOf(post).getLong("id")
            : MEDIA_PATH + cover.getLong("id")))
        .put("favorite_count", counts.getLong("likes", 0L))
        .put("comment_count", counts.getLong("comments", 0L))
        .put("is_favorite", viewer.getBoolean("liked", false))
        .put("title", post.getString("text", ""));
  }

  /** The path of the {@code cover} variant of video media {@code id}. */
  static String coverVariant(long id) {
    return MEDIA_PATH + id + "?variant=" + COVER_VARIANT;
  }

  /** The video media of a post view, or null. */
  static JsonObject videoOf(JsonObject post) {
    for (Object m : post.getJsonArray("media", new JsonArray())) {
      if ("video".equals(((JsonObject) m).getString("kind"))) {
        return (JsonObject) m;
      }
    }
    return null;
  }

  /** A comment view as a douyin comment ({@code create_date} as {@code MM-dd}, as those clients show it). */
  static JsonObject comment(JsonObject comment, JsonObject author) {
    return new JsonObject()
        .put("id", comment.getLong("id"))
        .put("user", author)
        .put("content", comment.getString("text"))
        .put("create_date", new java.text.SimpleDateFormat("MM-dd", java.util.Locale.ROOT)
            .format(new java.util.Date(comment.getLong("created", 0L))));
  }

  /** An absolute URL for a Kith path (a relative one made absolute; an absolute one kept; null as empty). */
  static String absolute(String base, String url) {
    if (url == null || url.isEmpty()) {
      return "";
    }
    return url.startsWith("/") ? base + url : url;
  }
}
