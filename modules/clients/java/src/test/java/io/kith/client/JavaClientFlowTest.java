package io.kith.client;

import io.kith.app.clients.ClientsKith;
import io.kith.app.support.TestNode;
import io.kith.client.api.AccountsApi;
import io.kith.client.api.ActivitiesApi;
import io.kith.client.api.AuthApi;
import io.kith.client.api.FeedsApi;
import io.kith.client.api.MediaApi;
import io.kith.client.api.MessagingApi;
import io.kith.client.api.NotificationsApi;
import io.kith.client.api.RelationsApi;
import io.kith.client.model.Activity;
import io.kith.client.model.ActivityPlace;
import io.kith.client.model.ActivityViewer;
import io.kith.client.model.Comment;
import io.kith.client.model.Conversation;
import io.kith.client.model.FollowUser200Response;
import io.kith.client.model.LikeState;
import io.kith.client.model.LoginRequest;
import io.kith.client.model.MessagePage;
import io.kith.client.model.NewActivity;
import io.kith.client.model.NewComment;
import io.kith.client.model.NewMessage;
import io.kith.client.model.NewPost;
import io.kith.client.model.Notification;
import io.kith.client.model.NotificationPage;
import io.kith.client.model.OwnProfile;
import io.kith.client.model.Participation;
import io.kith.client.model.Post;
import io.kith.client.model.PostVisibility;
import io.kith.client.model.Problem;
import io.kith.client.model.ProfileChanges;
import io.kith.client.model.Register201Response;
import io.kith.client.model.RegisterRequest;
import io.kith.client.model.SentMessage;
import io.kith.client.model.LoginTokens;
import io.kith.client.model.TokenPair;
import io.kith.client.model.UnreadCounts;
import io.kith.client.model.MediaView;
import io.kith.platform.testkit.Await;
import io.kith.platform.testkit.KithTestKit;
import io.kith.platform.testkit.Poll;
import io.kith.platform.testkit.TestImages;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.File;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Java client generated from the gateway's OpenAPI document (this module's build) runs the main flow of a
 * social app against a live Kith, and reads refusals as its {@link Problem} model. Nothing here talks to Kith but
 * the generated client: what a step asserts is what an app built on it relies on.
 */
@ExtendWith(KithTestKit.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@DisplayName("The Java client generated from the OpenAPI document (openapi-generator, apache-httpclient)")
class JavaClientFlowTest {

  private static final long HOUR = 3_600_000L;

  private ClientsKith kith;
  private final List<ApiClient> clients = new ArrayList<>();

  /** A registered user, its client (presenting its latest access token) and what it logs in with. */
  private record Member(long id, String username, String password, ApiClient client) {
  }

  @BeforeAll
  void start() {
    kith = ClientsKith.start();
  }

  @AfterAll
  void stop() throws Exception {
    for (ApiClient client : clients) {
      client.getHttpClient().close();
    }
    if (kith != null) {
      kith.close();
    }
  }

  @Test
  @DisplayName("register, log in, edit the profile, upload a photo, follow, post with it, home timeline, comment, "
      + "like, notifications and exact unread counts, a direct message, an activity created and joined")
  void mainFlow() throws Exception {
    Member alice = register();
    Member bob = login(register());
    editProfile(alice, "Alice of the harbour");
    long photo = uploadPhoto(alice);
    follow(bob, alice);
    long post = publish(alice, photo);
    homeTimeline(bob, alice, post, photo);
    long comment = comment(bob, post);
    like(bob, post);
    notifications(alice, bob, post, comment);
    directMessage(bob, alice);
    activity(alice, bob);
  }

  @Test
  @DisplayName("refusals arrive as ApiException whose body reads as the client's Problem: a wrong password is 401 "
      + "invalid_credentials, a comment on a missing post 404 post_not_found, a too short username 400 "
      + "validation_failed naming it")
  void refusals() throws Exception {
    Member bob = register();
    Problem wrongPassword = problem(401, () -> new AuthApi(client(null))
        .login(new LoginRequest().login(bob.username()).password(bob.password() + "x")));
    assertEquals("invalid_credentials", wrongPassword.getCode());
    assertEquals(401, wrongPassword.getStatus().intValue());

    Problem missingPost = problem(404, () -> new FeedsApi(bob.client())
        .addComment(TestNode.MAX_ID, new NewComment().text("Anyone there?")));
    assertEquals("post_not_found", missingPost.getCode());

    Problem shortName = problem(400, () -> new AccountsApi(client(null))
        .register(new RegisterRequest().username("ab").password("Sunny-" + UUID.randomUUID())));
    assertEquals("validation_failed", shortName.getCode());
    assertEquals("username", shortName.getField());
  }

  // ------------------------------------------------------------------ steps of the flow

  private Member register() throws ApiException {
    String username = TestNode.unique("j");
    String password = "Sunny-" + UUID.randomUUID();
    Register201Response created = new AccountsApi(client(null))
        .register(new RegisterRequest().username(username).password(password));
    long id = created.getUser().getId();
    // ids are milliseconds-based: past 2^31 from the first one, so a client must read them as 64-bit
    assertTrue(id > Integer.MAX_VALUE, "the user id needs 64 bits: " + id);
    assertEquals(username, created.getUser().getUsername());
    assertEquals(id, created.getTokens().getUserId());
    assertEquals(TokenPair.TokenTypeEnum.BEARER, created.getTokens().getTokenType());
    return new Member(id, username, password, client(created.getTokens().getAccessToken()));
  }

  /** Logs in again by username: the new token pair is the member's client from now on. */
  private Member login(Member member) throws ApiException {
    LoginTokens tokens = new AuthApi(client(null))
        .login(new LoginRequest().login(member.username()).password(member.password()));
    assertEquals(member.id(), tokens.getUserId());
    assertTrue(tokens.getExpiresIn() > 0);
    assertNotNull(tokens.getDeviceToken(), "a login names the device for the next one");
    return new Member(member.id(), member.username(), member.password(), client(tokens.getAccessToken()));
  }

  private void editProfile(Member member, String nickname) throws ApiException {
    AccountsApi accounts = new AccountsApi(member.client());
    OwnProfile edited = accounts.updateOwnProfile(new ProfileChanges().nickname(nickname)
        .signature("Generated clients, real flows."));
    assertEquals(member.id(), edited.getId());
    assertEquals(nickname, edited.getNickname());
    assertEquals("Generated clients, real flows.", accounts.getOwnProfile().getSignature());
  }

  private long uploadPhoto(Member member) throws Exception {
    // a real PNG: made-up bytes fail the media pipeline, and failed media cannot be attached to a post
    byte[] png = TestImages.png(40, 30);
    File file = File.createTempFile("kith-photo-", ".png");
    file.deleteOnExit();
    Files.write(file.toPath(), png);
    MediaView media = new MediaApi(member.client()).uploadMedia(file);
    assertEquals(MediaView.KindEnum.IMAGE, media.getKind());
    assertEquals("image/png", media.getContentType());
    assertEquals(MediaView.StateEnum.READY, media.getState());
    assertTrue(media.getSize() > 0, "the re-encoded image's size");
    return media.getId();
  }

  private void follow(Member follower, Member author) throws ApiException {
    FollowUser200Response state = new RelationsApi(follower.client()).followUser(author.id());
    assertEquals(FollowUser200Response.StateEnum.FOLLOWING, state.getState());
  }

  private long publish(Member author, long photo) throws ApiException {
    Post post = new FeedsApi(author.client()).publishPost(new NewPost().text("First light over the harbour")
        .addMediaItem(photo).visibility(PostVisibility.PUBLIC));
    assertEquals(author.id(), post.getAuthor().getId());
    assertEquals(photo, post.getMedia().get(0).getId());
    assertEquals(0L, post.getCounts().getLikes());
    return post.getId();
  }

  /** Waits until the post reaches the follower's home timeline (fan-out runs after the reply). */
  private void homeTimeline(Member follower, Member author, long postId, long photo) {
    FeedsApi feeds = new FeedsApi(follower.client());
    Post post = until("the post in the follower's home timeline",
        () -> feeds.getHomeTimeline(20L, null, null).getItems().stream()
            .filter(p -> p.getId() == postId).findFirst().orElse(null),
        p -> p != null);
    assertEquals(author.id(), post.getAuthor().getId());
    assertEquals(photo, post.getMedia().get(0).getId());
    assertTrue(post.getViewer().getFollowing());
  }

  private long comment(Member reader, long postId) throws ApiException {
    Comment made = new FeedsApi(reader.client()).addComment(postId, new NewComment().text("Beautiful!"));
    assertEquals(postId, made.getPost());
    assertEquals(reader.id(), made.getAuthor().getId());
    return made.getId();
  }

  private void like(Member reader, long postId) throws ApiException {
    LikeState state = new FeedsApi(reader.client()).likePost(postId);
    assertTrue(state.getLiked());
    assertEquals(1L, state.getLikeCount());
  }

  /** The author is told of the follow, the comment and the like, and the unread counts say exactly that. */
  private void notifications(Member author, Member reader, long postId, long commentId) throws ApiException {
    NotificationsApi api = new NotificationsApi(author.client());
    List<Notification> items = until("the follow, comment and like notifications",
        () -> notifications(api, 50, null).getItems(), list -> list.size() >= 3);
    assertEquals(3, items.size(), items::toString);
    // paging by two: the first page's next_cursor comes back as cursor for the rest
    NotificationPage first = notifications(api, 2, null);
    assertEquals(items.subList(0, 2), first.getItems());
    assertNotNull(first.getNextCursor(), "a full first page has a cursor");
    assertEquals(items.subList(2, 3), notifications(api, 2, first.getNextCursor()).getItems());
    assertEquals(reader.id(), ofType(items, "follower").getFromUser());
    assertEquals(commentId, ofType(items, "comment").getComment());
    assertEquals(postId, ofType(items, "comment").getPost());
    assertEquals(postId, ofType(items, "like").getPost());
    assertEquals(reader.id(), ofType(items, "like").getActor().getId());
    assertTrue(items.stream().allMatch(n -> n.getUnread() && n.getToUser() == author.id()), items::toString);
    UnreadCounts counts = until("the unread counts", api::getUnreadNotificationCounts, c -> c.getTotal() == 3);
    assertEquals(1L, counts.getByType().get("follower"));
    assertEquals(1L, counts.getByType().get("comment"));
    assertEquals(1L, counts.getByType().get("like"));
    assertEquals(0L, counts.getByType().get("message"));
  }

  /** A direct message is stored once (a retry with its client_id answers it again) and read back in the history. */
  private void directMessage(Member from, Member to) throws ApiException {
    NewMessage message = new NewMessage().clientId(UUID.randomUUID().toString()).text("See you at the mill?");
    SentMessage sent = new MessagingApi(from.client()).sendDirectMessage(to.id(), message);
    assertFalse(sent.getDuplicate());
    assertEquals(from.id(), sent.getMessage().getSender());
    assertEquals(to.id(), sent.getMessage().getTo());
    assertEquals(1L, sent.getMessage().getSeq());
    SentMessage retried = new MessagingApi(from.client()).sendDirectMessage(to.id(), message);
    assertTrue(retried.getDuplicate());
    assertEquals(sent.getMessage().getId(), retried.getMessage().getId());

    MessagingApi reader = new MessagingApi(to.client());
    Conversation conversation = reader.getDirectConversation(from.id());
    assertEquals(sent.getMessage().getConversation(), conversation.getId());
    MessagePage history = reader.listMessages(conversation.getId(), null, null, null);
    assertEquals(1, history.getItems().size());
    assertEquals(sent.getMessage().getId(), history.getItems().get(0).getId());
    assertEquals("See you at the mill?", history.getItems().get(0).getText());
    assertEquals(1L, history.getLastSeq());
  }

  /** The organiser creates an activity a day ahead; the other member joins and takes a place. */
  private void activity(Member organiser, Member joiner) throws ApiException {
    long start = System.currentTimeMillis() + 24 * HOUR;
    Activity created = new ActivitiesApi(organiser.client()).createActivity(new NewActivity().title("Harbour walk")
        .start(start).end(start + 2 * HOUR).place(new ActivityPlace().name("The old mill")).capacity(10L));
    assertEquals(organiser.id(), created.getOrganiser().getId());
    assertEquals(start, created.getStart());
    assertEquals(ActivityViewer.StatusEnum.ORGANISER, created.getViewer().getStatus());
    assertEquals(0L, created.getParticipantCount());
    Participation joined = new ActivitiesApi(joiner.client()).joinActivity(created.getId());
    assertEquals(created.getId(), joined.getActivity());
    assertEquals(Participation.StatusEnum.JOINED, joined.getStatus());
    assertEquals(1L, joined.getParticipantCount());
  }

  // ------------------------------------------------------------------ helpers

  /** A client of the node presenting this access token, or an anonymous one. */
  private ApiClient client(String accessToken) {
    ApiClient client = new ApiClient().setBasePath(kith.baseUrl());
    if (accessToken != null) {
      client.setBearerToken(accessToken);
    }
    clients.add(client);
    return client;
  }

  /** A page of every notification of the caller, after {@code cursor} when it is not null. */
  private static NotificationPage notifications(NotificationsApi api, long limit, String cursor) throws ApiException {
    // the generated method takes every query parameter of the operation, in the document's order
    return api.listNotifications(null, null, null, null, null, null, null, null, null, null, null, limit, cursor,
        null);
  }

  private static Notification ofType(List<Notification> items, String type) {
    return items.stream().filter(n -> type.equals(n.getType())).findFirst()
        .orElseThrow(() -> new AssertionError("no " + type + " notification in " + items));
  }

  /** Calls {@code call}, which must be refused with {@code status}; answers the refusal's body as a Problem. */
  private Problem problem(int status, Callable<?> call) throws Exception {
    ApiException refused = assertThrows(ApiException.class, call::call);
    assertEquals(status, refused.getCode(), refused::getResponseBody);
    String type = refused.getResponseHeaders().entrySet().stream()
        .filter(h -> h.getKey().equalsIgnoreCase("Content-Type")).map(h -> h.getValue().get(0)).findFirst().orElse("");
    assertTrue(type.startsWith("application/problem+json"), type);
    Problem problem = client(null).getObjectMapper().readValue(refused.getResponseBody(), Problem.class);
    assertNotNull(problem.getCode(), refused::getResponseBody);
    return problem;
  }

  /**
   * Reads {@code read} (a blocking call of the client, run on a worker) until {@code done} accepts its answer, and
   * answers that; fails after the harness's generous wait.
   */
  private <T> T until(String what, Callable<T> read, Predicate<T> done) {
    AtomicReference<T> last = new AtomicReference<>();
    Await.result(Poll.until(kith.client(), TestNode.WAIT, what, () -> kith.client().executeBlocking(() -> {
      last.set(read.call());
      return done.test(last.get());
    })));
    return last.get();
  }
}
