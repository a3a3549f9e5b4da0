package io.kith.app.relations;

import io.kith.app.support.User;
import io.kith.platform.testkit.KithTestKit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.List;

import static io.kith.app.relations.RelationsKith.ids;
import static org.junit.jupiter.api.Assertions.assertEquals;

@ExtendWith(KithTestKit.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@DisplayName("Follow requests over HTTP: private accounts, /api/v1/me/follow-requests")
class FollowRequestsHttpTest {

  private RelationsKith kith;

  @BeforeAll
  void start() {
    kith = RelationsKith.start();
  }

  @AfterAll
  void stop() {
    if (kith != null) {
      kith.close();
    }
  }

  @Test
  @DisplayName("following a user who approves followers makes a request, listed both ways; accepting makes a follower")
  void acceptFlow() {
    User owner = kith.register();
    User fan = kith.register();
    kith.requireApproval(owner);

    assertEquals("requested", kith.follow(fan, owner));
    assertEquals("requested", kith.follow(fan, owner));

    assertEquals(List.of(fan.id()), ids(kith.get("/me/follow-requests/incoming", owner).expect(200)));
    assertEquals(List.of(owner.id()), ids(kith.get("/me/follow-requests/outgoing", fan).expect(200)));
    assertEquals(List.of(), ids(kith.get("/users/" + owner.path() + "/followers", owner).expect(200)));
    assertEquals(0, kith.counts(owner, fan).getInteger("follower_count"));

    kith.post("/me/follow-requests/" + fan.path() + "/accept", owner, null).expectNoContent();

    assertEquals(List.of(fan.id()), ids(kith.get("/users/" + owner.path() + "/followers", owner).expect(200)));
    assertEquals(1, kith.counts(owner, fan).getInteger("follower_count"));
    assertEquals(List.of(), ids(kith.get("/me/follow-requests/incoming", owner).expect(200)));
    assertEquals(List.of(), ids(kith.get("/me/follow-requests/outgoing", fan).expect(200)));
    assertEquals("following", kith.follow(fan, owner));
  }

  @Test
  @DisplayName("a rejected request disappears without a follower; rejecting or accepting it again is 404")
  void rejectFlow() {
    User owner = kith.register();
    User fan = kith.register();
    kith.requireApproval(owner);
    kith.follow(fan, owner);

    kith.post("/me/follow-requests/" + fan.path() + "/reject", owner, null).expectNoContent();

    assertEquals(List.of(), ids(kith.get("/me/follow-requests/incoming", owner).expect(200)));
    assertEquals(List.of(), ids(kith.get("/me/follow-requests/outgoing", fan).expect(200)));
    assertEquals(0, kith.counts(owner, owner).getInteger("follower_count"));
    kith.post("/me/follow-requests/" + fan.path() + "/reject", owner, null).problem(404, "request_not_found");
    kith.post("/me/follow-requests/" + fan.path() + "/accept", owner, null).problem(404, "request_not_found");
  }

  @Test
  @DisplayName("the requester cancels with DELETE /following/{userId}")
  void cancel() {
    User owner = kith.register();
    User fan = kith.register();
    kith.requireApproval(owner);
    kith.follow(fan, owner);

    kith.delete("/following/" + owner.path(), fan).expectNoContent();

    assertEquals(List.of(), ids(kith.get("/me/follow-requests/outgoing", fan).expect(200)));
    assertEquals(List.of(), ids(kith.get("/me/follow-requests/incoming", owner).expect(200)));
    kith.post("/me/follow-requests/" + fan.path() + "/accept", owner, null).problem(404, "request_not_found");
  }

  @Test
  @DisplayName("only the target can accept: the requester, or a third user, accepting is 404 request_not_found")
  void onlyTargetAccepts() {
    User owner = kith.register();
    User fan = kith.register();
    User other = kith.register();
    kith.requireApproval(owner);
    kith.follow(fan, owner);

    kith.post("/me/follow-requests/" + owner.path() + "/accept", fan, null).problem(404, "request_not_found");
    kith.post("/me/follow-requests/" + fan.path() + "/accept", other, null).problem(404, "request_not_found");
    kith.post("/me/follow-requests/" + fan.path() + "/reject", other, null).problem(404, "request_not_found");

    assertEquals(List.of(fan.id()), ids(kith.get("/me/follow-requests/incoming", owner).expect(200)));
  }

  @Test
  @DisplayName("incoming requests page newest first through limit and cursor")
  void paging() {
    User owner = kith.register();
    kith.requireApproval(owner);
    List<User> fans = kith.register(5);
    fans.forEach(fan -> assertEquals("requested", kith.follow(fan, owner)));

    List<Long> expected = new java.util.ArrayList<>(fans.stream().map(User::id).toList());
    java.util.Collections.reverse(expected);
    assertEquals(expected, kith.allIds("/me/follow-requests/incoming", owner, 2));
  }
}
