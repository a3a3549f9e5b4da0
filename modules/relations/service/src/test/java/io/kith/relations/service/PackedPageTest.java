package io.kith.relations.service;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The packed page the follower-list script answers: ids separated by commas, each with an optional set letter. */
class PackedPageTest {

  private static FollowerLists.Page unpack(String packed) {
    return FollowerLists.unpack(packed.getBytes(StandardCharsets.US_ASCII), 0b0100, 77L);
  }

  @Test
  @DisplayName("a packed page gives each follower in order with the bits of its letter, and no letter means no set")
  void unpacks() {
    FollowerLists.Page page = unpack("9007199254740991,12c,5,340a,7o");
    assertArrayEquals(new long[] {9_007_199_254_740_991L, 12, 5, 340, 7}, page.followers());
    assertArrayEquals(new int[] {0, 3, 0, 1, 15}, page.masks());
    assertEquals(0b0100, page.unanswered());
    assertEquals(77L, page.next());
  }

  @Test
  @DisplayName("an empty packed page is a page without followers")
  void empty() {
    FollowerLists.Page page = FollowerLists.unpack(new byte[0], 0, null);
    assertEquals(0, page.followers().length);
    assertEquals(0, page.masks().length);
    assertNull(page.next());
  }

  @Test
  @DisplayName("anything else is refused rather than read as some other page")
  void refusesMalformed() {
    for (String bad : new String[] {"12,", ",12", "12,,3", "a", "12ab", "12p", "12A", "1a2", "12 ,3", "-5", "1.5",
        "1234567890123456789", "12,z"}) {
      assertThrows(IllegalStateException.class, () -> unpack(bad), bad);
    }
  }
}
