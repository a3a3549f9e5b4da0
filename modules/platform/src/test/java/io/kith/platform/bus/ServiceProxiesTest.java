package io.kith.platform.bus;

import io.kith.platform.error.Failures;
import io.kith.platform.error.KithErrors;
import io.vertx.core.Future;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.serviceproxy.ServiceException;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What a caller of another domain's service sees when that service fails in each way. */
class ServiceProxiesTest {

  /** A stand-in for a domain service interface. */
  interface Echo {
    Future<String> call(String answer);

    String name();
  }

  private static Echo failingWith(Throwable failure) {
    Echo failing = new Echo() {
      @Override
      public Future<String> call(String answer) {
        return failure == null ? Future.succeededFuture(answer) : Future.failedFuture(failure);
      }

      @Override
      public String name() {
        if (failure instanceof IllegalStateException) {
          throw (IllegalStateException) failure;
        }
        return "echo";
      }
    };
    return ServiceProxies.timeoutsUnavailable(Echo.class, failing, "kith.echo");
  }

  @Test
  @DisplayName("a service that does not answer in time fails as unavailable (503 with retry_after), not as an "
      + "uncoded failure a second service would pass on as a 500")
  void timeoutIsUnavailable() {
    Future<String> call = failingWith(new ReplyException(ReplyFailure.TIMEOUT, "Timed out after waiting 15000(ms)"))
        .call("x");
    assertTrue(call.failed());
    assertTrue(Failures.is(call.cause(), KithErrors.UNAVAILABLE), String.valueOf(call.cause()));
    ServiceException coded = (ServiceException) call.cause();
    assertEquals(503, coded.failureCode());
    assertEquals(2, coded.getDebugInfo().getJsonObject(Failures.EXTRA).getInteger("retry_after"));
    assertFalse(coded.getMessage().contains("kith.echo"), "the address stays out of the answer: " + coded.getMessage());
  }

  @Test
  @DisplayName("an address no node serves, a coded refusal and an answer pass through unchanged")
  void othersPassThrough() {
    ReplyException noHandlers = new ReplyException(ReplyFailure.NO_HANDLERS, "No handlers for address kith.echo");
    assertSame(noHandlers, failingWith(noHandlers).call("x").cause());
    ServiceException refusal = new ServiceException(404, "user_not_found");
    assertSame(refusal, failingWith(refusal).call("x").cause());
    ReplyException recipient = new ReplyException(ReplyFailure.RECIPIENT_FAILURE, -1, "boom");
    assertSame(recipient, failingWith(recipient).call("x").cause());
    assertEquals("hello", failingWith(null).call("hello").result());
  }

  @Test
  @DisplayName("a method that returns no future answers as the service does, and what it throws is thrown as is")
  void plainMethods() {
    assertEquals("echo", failingWith(null).name());
    IllegalStateException thrown = new IllegalStateException("thrown");
    assertSame(thrown, assertThrows(IllegalStateException.class, () -> failingWith(thrown).name()));
  }
}
