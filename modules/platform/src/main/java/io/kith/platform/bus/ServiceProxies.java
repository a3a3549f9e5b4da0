package io.kith.platform.bus;

import io.kith.platform.store.StoreFailures;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.serviceproxy.ServiceProxyBuilder;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;

/**
 * Proxies to domain services on the event bus, made in one place: every {@code <Domain>Service.proxy(vertx)} comes
 * from here. A call the service does not answer within {@link #SEND_TIMEOUT_MS} fails with the coded
 * {@code unavailable} (503 with {@code retry_after}) instead of the bus's uncoded {@code TIMEOUT}: a service that got
 * it from a service it called would otherwise pass it on as an uncoded failure, which reaches the client as a 500.
 * A call to an address that no node serves ({@code NO_HANDLERS}) is left as it is: callers tell a module that is not
 * deployed from one that is slow by it, and the gateway answers it with 503 itself.
 */
public final class ServiceProxies {

  /** How long a service call may take before it fails as unavailable. */
  public static final long SEND_TIMEOUT_MS = 15_000;

  private ServiceProxies() {
  }

  /** A proxy to the service of type {@code type} bound at {@code address}, on any node of the cluster. */
  public static <T> T proxy(Vertx vertx, Class<T> type, String address) {
    T generated = new ServiceProxyBuilder(vertx).setAddress(address)
        .setOptions(new DeliveryOptions().setSendTimeout(SEND_TIMEOUT_MS)).build(type);
    return timeoutsUnavailable(type, generated, address);
  }

  /**
   * {@code delegate} with every {@link Future} it returns failing as {@code unavailable} where it would fail with a
   * reply {@code TIMEOUT}; other failures and all successes pass through unchanged.
   */
  public static <T> T timeoutsUnavailable(Class<T> type, T delegate, String address) {
    Object proxy = Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type},
        (self, method, args) -> call(self, delegate, method, args));
    return type.cast(proxy);
  }

  private static Object call(Object self, Object delegate, Method method, Object[] args) throws Throwable {
    if (method.getDeclaringClass() == Object.class && method.getName().equals("equals")) {
      return self == args[0];
    }
    Object result;
    try {
      result = method.invoke(delegate, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
    if (!(result instanceof Future<?> future)) {
      return result;
    }
    return future.recover(e -> isTimeout(e)
        // the address stays out of the answer: clients are told to retry, the gateway's log says what failed
        ? Future.failedFuture(StoreFailures.unavailable("a service"))
        : Future.failedFuture(e));
  }

  private static boolean isTimeout(Throwable e) {
    return e instanceof ReplyException && ((ReplyException) e).failureType() == ReplyFailure.TIMEOUT;
  }
}
