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
import java.util.function.Supplier;

/**
 * Proxies to domain services on the event bus, made in one place: every {@code <Domain>Service.proxy(vertx)} comes
 * from here. A call the service does not answer within {@link #SEND_TIMEOUT_MS} fails with the coded
 * {@code unavailable} (503 with {@code retry_after}) instead of the bus's uncoded {@code TIMEOUT}: a service that got
 * it from a service it called would otherwise pass it on as an uncoded failure, which reaches the client as a 500.
 * A call to an address that no node serves ({@code NO_HANDLERS}, after one retry a moment later) is left as it is:
 * callers tell a module that is not deployed from one that is slow by it, and the gateway answers it with 503 itself.
 *
 * <p>A call goes to this node's own instance of the service while it has one ({@link LocalServices}, kept by
 * {@link ServiceBindings}), else to any node of the cluster. A local instance that is stalled stalls its whole node,
 * callers included, so preferring it adds no way to fail; the timeout and the failures a caller sees are the same.
 */
public final class ServiceProxies {

  /** How long a service call may take before it fails as unavailable. */
  public static final long SEND_TIMEOUT_MS = 15_000;

  private ServiceProxies() {
  }

  /**
   * A proxy to the service of type {@code type} bound at {@code address}: this node's own instance while it has a live
   * one, else any node's.
   */
  public static <T> T proxy(Vertx vertx, Class<T> type, String address) {
    return proxy(vertx, type, address, SEND_TIMEOUT_MS);
  }

  /**
   * As {@link #proxy(Vertx, Class, String)}, failing as unavailable after {@code sendTimeoutMs} instead of
   * {@link #SEND_TIMEOUT_MS} (tests that wait for a timeout).
   */
  public static <T> T proxy(Vertx vertx, Class<T> type, String address, long sendTimeoutMs) {
    T cluster = new ServiceProxyBuilder(vertx).setAddress(address)
        .setOptions(new DeliveryOptions().setSendTimeout(sendTimeoutMs)).build(type);
    // local-only delivery: no look-up of the cluster's registrations (Hazelcast) on the way
    T nodeLocal = new ServiceProxyBuilder(vertx).setAddress(LocalServices.localAddress(address))
        .setOptions(new DeliveryOptions().setSendTimeout(sendTimeoutMs).setLocalOnly(true)).build(type);
    LocalServices here = LocalServices.of(vertx);
    Object nearest = Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type},
        (self, method, args) -> method.getDeclaringClass() != Object.class && here.serves(address)
            ? callLocal(self, nodeLocal, cluster, method, args)
            : callCluster(vertx, self, cluster, method, args));
    return timeoutsUnavailable(type, type.cast(nearest), address);
  }

  /** How long a call that found no handler anywhere waits before its one retry. */
  static final long NO_HANDLERS_RETRY_MS = 250;

  /**
   * Calls any node's instance. A call that finds no handler is sent once more after {@value #NO_HANDLERS_RETRY_MS}
   * ms (nothing was delivered, so it is safe): right after a node unbinds its instance (a drain) the cluster's view of
   * the address can be empty for a moment although another node serves it. Still none then, the failure stands.
   */
  private static Object callCluster(Vertx vertx, Object self, Object cluster, Method method, Object[] args)
      throws Throwable {
    return onNoHandlers(call(self, cluster, method, args),
        () -> vertx.timer(NO_HANDLERS_RETRY_MS).compose(t -> callAgain(self, cluster, method, args)));
  }

  /**
   * Calls the node-local instance; when its binding went between the look-up and the send (the service is
   * unregistering), nothing was delivered, so the call goes to the cluster as if there had been no local binding.
   */
  private static Object callLocal(Object self, Object nodeLocal, Object cluster, Method method, Object[] args)
      throws Throwable {
    return onNoHandlers(call(self, nodeLocal, method, args), () -> callAgain(self, cluster, method, args));
  }

  /**
   * {@code result} as it is, unless it is a future that fails with {@code NO_HANDLERS}: then the future
   * {@code instead} gives (nothing was delivered, so sending again is safe).
   */
  private static Object onNoHandlers(Object result, Supplier<Future<Object>> instead) {
    if (!(result instanceof Future<?>)) {
      return result;
    }
    @SuppressWarnings("unchecked")
    Future<Object> future = (Future<Object>) result;
    return future.recover(e -> isFailure(e, ReplyFailure.NO_HANDLERS) ? instead.get() : Future.failedFuture(e));
  }

  /** {@link #call} of a method that returns a future, with a thrown failure as a failed future. */
  @SuppressWarnings("unchecked")
  private static Future<Object> callAgain(Object self, Object delegate, Method method, Object[] args) {
    try {
      return (Future<Object>) call(self, delegate, method, args);
    } catch (Throwable thrown) {
      return Future.failedFuture(thrown);
    }
  }

  /**
   * {@code delegate} with every {@link Future} it returns failing as {@code unavailable} where it would fail with a
   * reply {@code TIMEOUT}; other failures and all successes pass through unchanged.
   */
  public static <T> T timeoutsUnavailable(Class<T> type, T delegate, String address) {
    Object proxy = Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type},
        (self, method, args) -> unavailableOnTimeout(self, delegate, method, args));
    return type.cast(proxy);
  }

  private static Object call(Object self, Object delegate, Method method, Object[] args) throws Throwable {
    if (method.getDeclaringClass() == Object.class && method.getName().equals("equals")) {
      return self == args[0];
    }
    try {
      return method.invoke(delegate, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }

  private static Object unavailableOnTimeout(Object self, Object delegate, Method method, Object[] args)
      throws Throwable {
    Object result = call(self, delegate, method, args);
    if (!(result instanceof Future<?> future)) {
      return result;
    }
    return future.recover(e -> isFailure(e, ReplyFailure.TIMEOUT)
        // the address stays out of the answer: clients are told to retry, the gateway's log says what failed
        ? Future.failedFuture(StoreFailures.unavailable("a service"))
        : Future.failedFuture(e));
  }

  private static boolean isFailure(Throwable e, ReplyFailure type) {
    return e instanceof ReplyException && ((ReplyException) e).failureType() == type;
  }
}
