package io.kith.platform.testkit;

import io.kith.platform.events.Exports;
import io.vertx.core.Vertx;

import java.util.ArrayList;
import java.util.List;

/** Reads a domain's whole part of an account export, page after page, as accounts' exporter does. */
public final class ExportPages {

  private ExportPages() {
  }

  /** Every page of {@code domain}'s part for {@code user}, following the cursor (at most {@code most} pages). */
  public static List<Exports.Page> all(Vertx vertx, String domain, long user, int most) {
    List<Exports.Page> pages = new ArrayList<>();
    String cursor = null;
    do {
      Exports.Page page = Await.result(Exports.fetch(vertx, domain, user, cursor, 60_000));
      pages.add(page);
      cursor = page.cursor();
    } while (cursor != null && pages.size() < most);
    return pages;
  }
}
