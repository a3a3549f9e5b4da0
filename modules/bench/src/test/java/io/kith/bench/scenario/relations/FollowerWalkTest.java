package io.kith.bench.scenario.relations;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

class FollowerWalkTest {

  @Test
  @DisplayName("the walk follows each page's next cursor down the list and starts again at the top at its end")
  void walksDownAndRestarts() {
    FollowerWalk walk = new FollowerWalk(3);
    FollowerWalk.Step first = walk.next();
    assertNull(first.cursor());
    assertEquals(0, first.depth());
    walk.answered(first, "c1");
    FollowerWalk.Step second = walk.next();
    assertEquals("c1", second.cursor());
    assertEquals(1, second.depth());
    walk.answered(second, "c2");
    FollowerWalk.Step third = walk.next();
    assertEquals("c2", third.cursor());
    assertEquals(2, third.depth());
    walk.answered(third, null);
    FollowerWalk.Step again = walk.next();
    assertNull(again.cursor(), "after the last page the walk starts again at the top");
    assertEquals(0, again.depth());
    assertEquals(1, again.lap());
    assertEquals(3, walk.advances());
    assertEquals(2, walk.deepest());
    assertEquals(1, walk.laps());
    assertEquals(0, walk.repeats());
  }

  @Test
  @DisplayName("a request due before the previous reply asks for the same page, and its late reply moves nothing")
  void repeatsWhilePendingAndIgnoresLateReplies() {
    FollowerWalk walk = new FollowerWalk(0);
    FollowerWalk.Step a = walk.next();
    FollowerWalk.Step b = walk.next();
    assertEquals(a, b);
    assertEquals(1, walk.repeats());
    walk.answered(b, "c1");
    walk.answered(a, "c1"); // the same page answered again, late
    FollowerWalk.Step next = walk.next();
    assertEquals("c1", next.cursor());
    assertEquals(1, next.depth());
    assertEquals(1, walk.advances());
  }

  @Test
  @DisplayName("a failed request leaves the walk on its page, so the next request asks for it again")
  void failedRequestRetriesThePage() {
    FollowerWalk walk = new FollowerWalk(0);
    walk.answered(walk.next(), "c1");
    FollowerWalk.Step lost = walk.next(); // never answered: an error or timeout
    FollowerWalk.Step retry = walk.next();
    assertEquals(lost, retry);
    assertEquals("c1", retry.cursor());
  }

  @Test
  @DisplayName("a list that ends early or goes on past its expected pages is an error")
  void checksTheLength() {
    FollowerWalk early = new FollowerWalk(3);
    FollowerWalk.Step first = early.next();
    assertThrows(IllegalStateException.class, () -> early.answered(first, null));

    FollowerWalk longer = new FollowerWalk(2);
    longer.answered(longer.next(), "c1");
    FollowerWalk.Step last = longer.next();
    assertThrows(IllegalStateException.class, () -> longer.answered(last, "c2"));

    FollowerWalk unknown = new FollowerWalk(0);
    unknown.answered(unknown.next(), null); // no expectation: any length is fine
    assertEquals(1, unknown.laps());
  }
}
