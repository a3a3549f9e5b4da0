package io.kith.feeds.service;

import io.kith.feeds.api.FeedsEvents;
import io.kith.feeds.api.events.FeedsEvent;
import io.kith.feeds.api.events.PostDeleted;
import io.kith.feeds.api.events.PostEdited;
import io.kith.feeds.api.events.PostPublished;
import io.kith.feeds.api.events.UserMentioned;
import io.kith.platform.Platform;
import io.kith.platform.events.DomainEvent;
import io.kith.platform.events.EventConsumer;
import io.kith.platform.metrics.KithMetrics;
import io.kith.platform.page.Page;
import io.kith.platform.page.PageRequest;
import io.kith.relations.api.RelationsEvents;
import io.kith.relations.api.RelationsInternal;
import io.kith.relations.api.RelationsService;
import io.kith.relations.api.events.RelationsEvent;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The fan-out worker: consumes {@code PostPublished}/{@code PostDeleted} from the feeds stream (consumer group
 * {@code feeds-fanout}) and follow, friendship and block events from the relations stream (group {@code feeds}), and
 * keeps the Redis timelines in step. Every handler is idempotent (set adds and removes), guarded by event id, and
 * runs on whichever node claims the event, so a node dying mid-fan-out loses nothing.
 *
 * <p>A post goes, page by page of the author's eligible followers (the relations service already drops those the
 * author hides from and those blocked either way, and flags the author's friends), to the home timeline of each
 * follower who may see it and to the moments timeline of each such follower who is a friend, many timelines per
 * script call ({@link Timelines#push}). Authors with more than {@link FeedsSettings#celebrityThreshold()} followers
 * are marked celebrities and not fanned out: readers merge their recent posts at read time.
 */
final class FanOut {

  static final String FEEDS_GROUP = "feeds-fanout";
  static final String RELATIONS_GROUP = "feeds";
  private static final Logger LOG = LoggerFactory.getLogger(FanOut.class);

  private final Platform platform;
  private final FeedsSettings settings;
  private final PostStore posts;
  private final Timelines timelines;
  private final Ties ties;
  private final RelationsInternal relationsInternal;
  private final FeedsServiceImpl service;
  private final List<EventConsumer> consumers = new ArrayList<>();
  private final InTurn inTurn;

  FanOut(Platform platform, FeedsSettings settings, PostStore posts, Timelines timelines,
         RelationsService relations, RelationsInternal relationsInternal, FeedsServiceImpl service) {
    this.platform = platform;
    this.settings = settings;
    this.posts = posts;
    this.timelines = timelines;
    this.ties = new Ties(relations, relationsInternal);
    this.relationsInternal = relationsInternal;
    this.service = service;
    this.inTurn = new InTurn(settings.fanoutWorkers());
  }

  /**
   * Starts one consumer of the feeds stream that takes up to {@link FeedsSettings#fanoutPrefetch()} events at once
   * and fans out up to {@link FeedsSettings#fanoutWorkers()} of them at a time, oldest post first (timeline writes are
   * idempotent and keep the order by id, so the order between posts is a matter of cost, not of correctness: in id
   * order nearly every insert is one push at the head; the consumer takes only as many events as it has free places,
   * so other nodes share a burst), and one of the relations stream, one event at a time (follows and unfollows of a
   * pair must apply in order).
   */
  Future<Void> start() {
    var log = platform.events();
    platform.metrics().gauge(KithMetrics.FANOUT_BACKLOG, "Posts waiting for fan-out (lag plus pending of "
        + FEEDS_GROUP + ")", () -> platform.eventLogMetrics().backlog(FeedsEvents.DOMAIN, FEEDS_GROUP));
    int taken = Math.max(Math.max(1, settings.fanoutWorkers()), settings.fanoutPrefetch());
    return log.consume(FeedsEvents.DOMAIN, FEEDS_GROUP, taken,
            log.once(FEEDS_GROUP, e -> inTurn.run(postOf(e), () -> onFeedsEvent(e))))
        .compose(c -> {
          consumers.add(c);
          return log.consume(RelationsEvents.DOMAIN, RELATIONS_GROUP,
              log.once(RELATIONS_GROUP, this::onRelationsEvent));
        })
        .map(c -> {
          consumers.add(c);
          return null;
        });
  }

  Future<Void> stop() {
    return Future.all(consumers.stream().map(EventConsumer::stop).toList())
        .eventually(timelines::close).mapEmpty();
  }

  /** The post a feeds event is about (events of one post are handled in turn); 0 for a type not known here. */
  private static long postOf(DomainEvent e) {
    FeedsEvent event = FeedsEvent.fromJson(e.type(), e.payload());
    return event == null ? 0L : event.post();
  }

  private Future<?> onFeedsEvent(DomainEvent e) {
    JsonObject p = e.payload();
    return switch (e.type()) {
      case FeedsEvents.POST_PUBLISHED -> publish(PostPublished.fromJson(p).post());
      case FeedsEvents.POST_DELETED -> deleted(PostDeleted.fromJson(p));
      // a wider audience gets the post now; a narrower one is enforced by every read; a released held post is
      // published to its readers only now, mentions included
      case FeedsEvents.POST_EDITED -> {
        PostEdited edited = PostEdited.fromJson(p);
        yield edited.released() ? publish(edited.post()) : spreadAgain(edited.post());
      }
      default -> Future.succeededFuture();
    };
  }

  private Future<?> onRelationsEvent(DomainEvent e) {
    RelationsEvent pair = RelationsEvent.ofBoth(e.type(), e.payload());
    if (pair == null) {
      return Future.succeededFuture();
    }
    long from = pair.from();
    long to = pair.to();
    return switch (e.type()) {
      case RelationsEvents.USER_FOLLOWED -> backfill(from, to, Timelines.HOME);
      // friends may see more than followers: home gets what became visible, both ways
      case RelationsEvents.FRIENDSHIP_FORMED -> Future.all(List.of(backfill(from, to, Timelines.MOMENTS),
          backfill(to, from, Timelines.MOMENTS), backfill(from, to, Timelines.HOME), backfill(to, from, Timelines.HOME)));
      case RelationsEvents.USER_UNFOLLOWED -> takeOut(from, to, Timelines.HOME);
      case RelationsEvents.FRIENDSHIP_ENDED ->
          Future.all(takeOut(from, to, Timelines.MOMENTS), takeOut(to, from, Timelines.MOMENTS));
      case RelationsEvents.USER_BLOCKED -> Future.all(List.of(takeOut(from, to, Timelines.HOME),
          takeOut(to, from, Timelines.HOME), takeOut(from, to, Timelines.MOMENTS), takeOut(to, from, Timelines.MOMENTS)));
      default -> Future.succeededFuture();
    };
  }

  // ---------------------------------------------------------------- publish

  Future<Void> publish(long postId) {
    return posts.find(postId).compose(post -> {
      if (post == null || post.getBoolean("deleted", false)) {
        return Future.succeededFuture();
      }
      return spreadOrMark(post).compose(v -> mentions(post));
    });
  }

  /** Re-runs the fan-out of an edited post (timeline adds are idempotent; a post older than a full timeline is trimmed). */
  private Future<Void> spreadAgain(long postId) {
    return posts.find(postId).compose(post -> post == null || post.getBoolean("deleted", false)
        ? Future.succeededFuture() : spreadOrMark(post));
  }

  /**
   * Fans the post out, or marks a celebrity author (merged at read). A former celebrity is unmarked only after the
   * fan-out, so readers never miss the post in between.
   *
   * <p>The follower count decides, but it is asked only when the first follower page leaves the question open: a
   * page that ends the list (no {@code next}) shows that the author has at most a page of followers, hence not more
   * than the threshold when the page is not larger. An author known as a celebrity on this node is counted first, so
   * that a celebrity's post costs no follower page.
   */
  private Future<Void> spreadOrMark(JsonObject post) {
    long author = post.getLong("author");
    if (Visibility.PRIVATE.equals(post.getString("vis"))) {
      return Future.succeededFuture();
    }
    return timelines.celebrities().compose(known -> {
      if (known.contains(author)) {
        return isCelebrity(author).compose(celebrity -> celebrity ? markCelebrity(author)
            : spread(post, followers(author, null)));
      }
      Future<JsonObject> first = followers(author, null);
      return first.compose(page -> page.getString("next") == null && page() <= settings.celebrityThreshold()
          ? spread(post, first)
          : isCelebrity(author).compose(celebrity -> celebrity ? markCelebrity(author) : spread(post, first)));
    });
  }

  private Future<Boolean> isCelebrity(long author) {
    return relationsInternal.counts(author)
        .map(counts -> counts.getLong("follower_count", 0L) > settings.celebrityThreshold());
  }

  private Future<Void> markCelebrity(long author) {
    return timelines.markCelebrity(author, true)
        .compose(v -> timelines.ensure(Timelines.OWN, author, () -> service.ownPosts(author)));
  }

  private int page() {
    return Math.max(1, settings.fanoutPage());
  }

  private Future<JsonObject> followers(long author, String cursor) {
    return relationsInternal.eligibleFollowers(author, PageRequest.after(cursor, page())).map(Page::toJson);
  }

  /**
   * Pushes the post page by page (the next page is read while one is pushed), then unmarks the author as a
   * celebrity. An author still marked (one who just dropped to the threshold or below) also gets the recent posts of
   * the celebrity period spread, over the same walk of their follower pages, before the mark goes: they were never
   * fanned out, readers merged them only while the mark was there, and without this they would leave every follower's
   * home and moments at once. After the mark goes, posts newer than this one are spread too: another node may have
   * marked the author again meanwhile (the count rose back) and left its post to the merge this unmarking ends.
   */
  private Future<Void> spread(JsonObject post, Future<JsonObject> first) {
    long author = post.getLong("author");
    long id = post.getLong("_id");
    return timelines.markedCelebrity(author).compose(marked -> {
      if (!marked) {
        return spreadPages(List.of(post), first).compose(v -> timelines.markCelebrity(author, false));
      }
      return posts.byAuthors(List.of(author), 0, 0, settings.backfillPosts())
          .compose(recent -> {
            List<JsonObject> all = new ArrayList<>(List.of(post));
            all.addAll(spreadable(recent, id));
            return spreadPages(all, first);
          })
          .compose(v -> timelines.markCelebrity(author, false))
          .compose(v -> posts.byAuthors(List.of(author), 0, id, settings.backfillPosts()))
          .compose(newer -> {
            List<JsonObject> left = spreadable(newer, id);
            return left.isEmpty() ? Future.<Void>succeededFuture() : spreadPages(left, followers(author, null));
          });
    });
  }

  /** The posts of a list that fan-out spreads (not private; live, as {@link PostStore#byAuthors} reads), but one. */
  private static List<JsonObject> spreadable(List<JsonObject> found, long except) {
    return found.stream().filter(p -> p.getLong("_id") != except && !Visibility.PRIVATE.equals(p.getString("vis")))
        .toList();
  }

  /**
   * Pushes the posts (all of one author) to the followers who may see each, page by page of the author's followers,
   * the posts of a page one after another.
   */
  private Future<Void> spreadPages(List<JsonObject> spread, Future<JsonObject> pageFuture) {
    long author = spread.get(0).getLong("author");
    return pageFuture.compose(page -> {
      String next = page.getString("next");
      Future<JsonObject> nextPage = next == null ? null : followers(author, next);
      List<Long> followers = ids(page.getJsonArray("items"));
      Set<Long> friends = new HashSet<>(ids(page.getJsonArray("friends")));
      Future<Void> pushed = Future.succeededFuture();
      for (JsonObject post : spread) {
        long id = post.getLong("_id");
        pushed = pushed.compose(v -> recipients(post, followers, friends).compose(home -> {
          List<Long> moments = home.stream().filter(friends::contains).toList();
          return Future.all(timelines.fanOut(Timelines.HOME, home, id),
              timelines.fanOut(Timelines.MOMENTS, moments, id)).mapEmpty();
        }));
      }
      return nextPage == null ? pushed : pushed.compose(v -> spreadPages(spread, nextPage));
    });
  }

  private static List<Long> ids(JsonArray array) {
    List<Long> out = new ArrayList<>(array == null ? 0 : array.size());
    if (array != null) {
      array.forEach(f -> out.add(((Number) f).longValue()));
    }
    return out;
  }

  /**
   * Which of these followers may see the post (seen from the author: friend, the author's groups and tags);
   * {@code friends} holds those of them who are the author's friends.
   */
  private Future<List<Long>> recipients(JsonObject post, List<Long> followers, Set<Long> friends) {
    String vis = post.getString("vis");
    if (Visibility.PUBLIC.equals(vis) || Visibility.FOLLOWERS.equals(vis)) {
      return Future.succeededFuture(followers);
    }
    if (Visibility.FRIENDS.equals(vis) || (Visibility.EXCEPT.equals(vis) && !Visibility.needsPlacements(post)
        && post.getJsonObject("aud").getJsonArray("users", new JsonArray()).isEmpty())) {
      return Future.succeededFuture(followers.stream().filter(friends::contains).toList());
    }
    long author = post.getLong("author");
    Future<Map<Long, JsonObject>> rel = Visibility.needsPlacements(post) ? ties.relationships(author, followers)
        : Future.succeededFuture(Map.of());
    return rel.map(r -> followers.stream().filter(f -> {
      JsonObject fr = r.getOrDefault(f, new JsonObject());
      Set<Long> groups = new HashSet<>();
      fr.getJsonArray("groups", new JsonArray()).forEach(g -> groups.add(((Number) g).longValue()));
      Set<String> tags = new HashSet<>();
      fr.getJsonArray("tags", new JsonArray()).forEach(t -> tags.add(t.toString().toLowerCase(Locale.ROOT)));
      Visibility.Tie tie = new Visibility.Tie(true, friends.contains(f), false, false, false, groups, tags);
      return Visibility.canSee(f, post, tie);
    }).toList());
  }

  /** One {@code UserMentioned} per mentioned user who may see the post. */
  private Future<Void> mentions(JsonObject post) {
    long author = post.getLong("author");
    List<Future<Void>> each = new ArrayList<>();
    for (Object m : post.getJsonArray("mentions", new JsonArray())) {
      long user = ((Number) m).longValue();
      if (user == author) {
        continue;
      }
      each.add(service.visibleDocs(user, List.of(post), false).compose(v -> v.isEmpty() ? Future.succeededFuture()
          : platform.events().publisher(FeedsEvents.DOMAIN).append(new UserMentioned(post.getLong("_id"), author, user))
              .mapEmpty()));
    }
    return Future.all(each).mapEmpty();
  }

  // ---------------------------------------------------------------- delete

  private Future<Void> deleted(PostDeleted event) {
    long postId = event.post();
    return unspread(event.author(), postId, null).compose(v -> posts.purgeInteractions(postId));
  }

  private Future<Void> unspread(long author, long postId, String cursor) {
    return followers(author, cursor).compose(page -> {
      List<Long> followers = ids(page.getJsonArray("items"));
      return Future.all(timelines.removeFrom(Timelines.HOME, followers, postId),
          timelines.removeFrom(Timelines.MOMENTS, followers, postId)).compose(v -> {
            String next = page.getString("next");
            return next == null ? Future.<Void>succeededFuture() : unspread(author, postId, next);
          });
    });
  }

  // ---------------------------------------------------------------- relation changes

  /**
   * Copies the recent posts of {@code author} that {@code reader} may see into the reader's timeline, unless the
   * author is marked a celebrity: their posts are merged at read and never written into a timeline (a follow handled
   * late, after a celebrity's post was fanned out as merged, would otherwise write it in). An author over the
   * threshold who is not marked yet still gets their posts copied: nothing merges them until their next post.
   */
  private Future<Void> backfill(long reader, long author, String kind) {
    return timelines.celebrities().compose(known -> known.contains(author)
        ? Future.<Void>succeededFuture() : copyRecent(reader, author, kind));
  }

  private Future<Void> copyRecent(long reader, long author, String kind) {
    return posts.byAuthors(List.of(author), 0, 0, settings.backfillPosts())
        .compose(recent -> service.visibleDocs(reader, recent, false))
        .compose(visible -> timelines.pushAll(kind, reader, PostStore.ids(visible)));
  }

  /** Takes {@code author}'s recent posts out of {@code reader}'s timeline. */
  private Future<Void> takeOut(long reader, long author, String kind) {
    return posts.byAuthors(List.of(author), 0, 0, settings.timelineCap())
        .compose(recent -> timelines.remove(kind, reader, PostStore.ids(recent)))
        .onFailure(e -> LOG.warn("Could not take {}'s posts out of {}'s {}: {}", author, reader, kind, e.toString()));
  }
}
